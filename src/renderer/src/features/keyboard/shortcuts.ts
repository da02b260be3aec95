/**
 * The keymap, as data and one pure function: every action the app has is
 * reachable from the keyboard. Single keys act only outside text fields.
 */
export type Action =
  | 'next'
  | 'previous'
  | 'arrow-down'
  | 'arrow-up'
  | 'top'
  | 'bottom'
  | 'back'
  | 'undo'
  | 'page-down'
  | 'page-up'
  | 'reader-top'
  | 'reader-bottom'
  | 'open'
  | 'close'
  | 'next-page'
  | 'previous-page'
  | 'favorite'
  | 'delete'
  | 'toggle-unread'
  | 'toggle-favorites'
  | 'focus-search'
  | 'refresh'
  | 'format-html'
  | 'format-text'
  | 'format-raw'
  | 'format-headers'
  | 'rule-from-email'
  | 'toggle-check'
  | 'extend-down'
  | 'extend-up'
  | 'check-all'
  | 'check-none'
  | 'load-remote'
  | 'save-attachment'
  | 'go-inbox'
  | 'go-automations'
  | 'go-settings'
  | 'new-automation'
  | 'copy-code'
  | 'copy-link'
  | 'save-eml'
  | 'preview-width'
  | 'preview-dark'
  | 'check-links'
  | 'check-html'
  | 'print'
  | 'save-pdf'
  | 'shortcuts';

export const SHORTCUTS: { keys: string; action: Action; label: string }[] = [
  { keys: 'j', action: 'next', label: 'Next email (the reader follows)' },
  { keys: 'k', action: 'previous', label: 'Previous email' },
  { keys: '↓ / ↑', action: 'arrow-down', label: 'Next / previous email; scroll when reading' },
  { keys: 'g g / G', action: 'top', label: 'First / last email on the page' },
  { keys: 'Enter / o', action: 'open', label: 'Open email' },
  { keys: 'u', action: 'back', label: 'Back to the list' },
  { keys: 'Esc', action: 'close', label: 'Close email / leave field' },
  { keys: 'Space / Shift+Space', action: 'page-down', label: 'Scroll the email; at its end, the next one' },
  { keys: 'PgDn / PgUp / Home / End', action: 'page-up', label: 'Scroll the email' },
  { keys: 'n / →', action: 'next-page', label: 'Next page' },
  { keys: 'p / ←', action: 'previous-page', label: 'Previous page' },
  { keys: 'x', action: 'toggle-check', label: 'Select / unselect the email (for s and #)' },
  { keys: 'J / K', action: 'extend-down', label: 'Extend the selection down / up' },
  { keys: '* a / * n', action: 'check-all', label: 'Select all on this page / none' },
  { keys: 's', action: 'favorite', label: 'Star / unstar (the selected ones, if any)' },
  { keys: '# / Delete', action: 'delete', label: 'Delete (the selected ones, if any)' },
  { keys: 'z', action: 'undo', label: 'Undo delete' },
  { keys: 'U', action: 'toggle-unread', label: 'Only unread' },
  { keys: 'f', action: 'toggle-favorites', label: 'Only starred' },
  { keys: '/', action: 'focus-search', label: 'Search' },
  { keys: 'r', action: 'refresh', label: 'Refresh' },
  { keys: '1 / 2 / 3 / 4', action: 'format-html', label: 'HTML / text / raw / headers view' },
  { keys: 'i', action: 'load-remote', label: 'Load remote images' },
  { keys: 'a', action: 'save-attachment', label: 'Save an attachment (then its number)' },
  { keys: 'g i / g a / g s', action: 'go-inbox', label: 'Go to inbox / automations / settings' },
  { keys: 'c', action: 'new-automation', label: 'New automation (in automations)' },
  { keys: 'R', action: 'rule-from-email', label: 'New rule from this email' },
  { keys: 'C / L', action: 'copy-code', label: 'Copy the email’s code / its main link (password reset, confirm…)' },
  { keys: 'E', action: 'save-eml', label: 'Save the email as .eml (its exact bytes)' },
  { keys: 'V', action: 'check-links', label: 'Check every link and image of the email (asks the web: only when you press it)' },
  { keys: 'H', action: 'check-html', label: 'Check the HTML against what Gmail, Outlook, Apple Mail… support (caniemail.com)' },
  { keys: 'Ctrl+P / P', action: 'print', label: 'Print the email as shown / save it as PDF' },
  { keys: 'w / D', action: 'preview-width', label: 'Preview as a phone / tablet / full width; as a client in dark mode' },
  { keys: '?', action: 'shortcuts', label: 'Show shortcuts' },
];

/**
 * Every action by itself, with its own name and key: what the command palette
 * lists and runs. (SHORTCUTS groups related keys on one line for the help.)
 */
export const COMMANDS: Record<Action, { label: string; keys: string }> = {
  next: { label: 'Next email', keys: 'j' },
  previous: { label: 'Previous email', keys: 'k' },
  'arrow-down': { label: 'Next email, or scroll down while reading', keys: '↓' },
  'arrow-up': { label: 'Previous email, or scroll up while reading', keys: '↑' },
  top: { label: 'First email on the page', keys: 'g g' },
  bottom: { label: 'Last email on the page', keys: 'G' },
  back: { label: 'Back to the list', keys: 'u' },
  undo: { label: 'Undo the last delete', keys: 'z' },
  'page-down': { label: 'Scroll the email down (at its end, the next email)', keys: 'Space' },
  'page-up': { label: 'Scroll the email up', keys: 'Shift+Space' },
  'reader-top': { label: 'Top of the email', keys: 'Home' },
  'reader-bottom': { label: 'End of the email', keys: 'End' },
  open: { label: 'Open email', keys: 'Enter' },
  close: { label: 'Close email', keys: 'Esc' },
  'next-page': { label: 'Next page', keys: 'n' },
  'previous-page': { label: 'Previous page', keys: 'p' },
  favorite: { label: 'Star / unstar', keys: 's' },
  delete: { label: 'Delete', keys: '#' },
  'toggle-unread': { label: 'Only unread', keys: 'U' },
  'toggle-favorites': { label: 'Only starred', keys: 'f' },
  'focus-search': { label: 'Search', keys: '/' },
  refresh: { label: 'Refresh', keys: 'r' },
  'format-html': { label: 'Show the HTML view', keys: '1' },
  'format-text': { label: 'Show the text view', keys: '2' },
  'format-raw': { label: 'Show the raw message', keys: '3' },
  'format-headers': { label: 'Show the headers', keys: '4' },
  'rule-from-email': { label: 'New rule from this email', keys: 'R' },
  'toggle-check': { label: 'Select / unselect the email', keys: 'x' },
  'extend-down': { label: 'Extend the selection down', keys: 'J' },
  'extend-up': { label: 'Extend the selection up', keys: 'K' },
  'check-all': { label: 'Select all on this page', keys: '* a' },
  'check-none': { label: 'Select none', keys: '* n' },
  'load-remote': { label: 'Load remote images', keys: 'i' },
  'save-attachment': { label: 'Save an attachment', keys: 'a' },
  'go-inbox': { label: 'Go to the inbox', keys: 'g i' },
  'go-automations': { label: 'Go to automations', keys: 'g a' },
  'go-settings': { label: 'Go to settings', keys: 'g s' },
  'new-automation': { label: 'New automation', keys: 'c' },
  'copy-code': { label: 'Copy the verification code', keys: 'C' },
  'copy-link': { label: 'Copy the main link (reset, confirm, sign in)', keys: 'L' },
  'save-eml': { label: 'Save the email as .eml', keys: 'E' },
  'preview-width': { label: 'Preview width: phone, tablet, full', keys: 'w' },
  'preview-dark': { label: 'Preview in a client’s dark mode', keys: 'D' },
  'check-links': { label: 'Check every link and image', keys: 'V' },
  'check-html': { label: 'Check the HTML’s compatibility with email clients', keys: 'H' },
  print: { label: 'Print the email', keys: 'Ctrl+P' },
  'save-pdf': { label: 'Save the email as PDF', keys: 'P' },
  shortcuts: { label: 'Show keyboard shortcuts', keys: '?' },
};

const SINGLE: Record<string, Action> = {
  j: 'next',
  ArrowDown: 'arrow-down',
  k: 'previous',
  ArrowUp: 'arrow-up',
  G: 'bottom',
  x: 'toggle-check',
  R: 'rule-from-email',
  C: 'copy-code',
  L: 'copy-link',
  E: 'save-eml',
  w: 'preview-width',
  D: 'preview-dark',
  V: 'check-links',
  H: 'check-html',
  P: 'save-pdf',
  J: 'extend-down',
  K: 'extend-up',
  z: 'undo',
  ' ': 'page-down',
  PageDown: 'page-down',
  PageUp: 'page-up',
  Home: 'reader-top',
  End: 'reader-bottom',
  Enter: 'open',
  o: 'open',
  Escape: 'close',
  n: 'next-page',
  ArrowRight: 'next-page',
  p: 'previous-page',
  ArrowLeft: 'previous-page',
  s: 'favorite',
  '#': 'delete',
  Delete: 'delete',
  u: 'back',
  U: 'toggle-unread',
  f: 'toggle-favorites',
  '/': 'focus-search',
  r: 'refresh',
  '1': 'format-html',
  '2': 'format-text',
  '3': 'format-raw',
  '4': 'format-headers',
  i: 'load-remote',
  a: 'save-attachment',
  c: 'new-automation',
  '?': 'shortcuts',
};

const AFTER_G: Record<string, Action> = { g: 'top', i: 'go-inbox', a: 'go-automations', s: 'go-settings' };

export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey?: boolean;
  /** True when focus is in a text field, select or content-editable. */
  inField: boolean;
}

const AFTER_STAR: Record<string, Action> = { a: 'check-all', n: 'check-none' };

/** The action for a key press, given the prefix (`g` or `*`) that came just before. */
export function actionFor(input: KeyInput, prefix: boolean | 'g' | '*'): Action | 'g' | '*' | null {
  if (input.ctrlKey || input.metaKey || input.altKey) return null;
  if (input.inField) return input.key === 'Escape' ? 'close' : null;
  if (prefix === true || prefix === 'g') return AFTER_G[input.key] ?? null;
  if (prefix === '*') return AFTER_STAR[input.key] ?? null;
  if (input.key === 'g') return 'g';
  if (input.key === '*') return '*';
  if (input.key === ' ' && input.shiftKey) return 'page-up';
  return SINGLE[input.key] ?? null;
}
