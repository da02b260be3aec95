/**
 * The tester's loop, as decisions: a fresh address from the user's pattern,
 * which watched address an email answers, what goes to the clipboard (the
 * code, else the main link), how a global shortcut is written, and what the
 * tray shows. Main runs the loop (main/tester-loop.ts); this runs anywhere.
 */
/** How often a watched inbox is asked for on a remote server (never past the rate budget). */
export const WATCH_POLL_MS = 2_000;
/** A watch ends by itself after its first email, or after this long. */
export const WATCH_MAX_MS = 10 * 60_000;
/** Open watches at once: a new one past this ends the oldest. */
export const MAX_WATCHES = 5;
/** Copies the newest email's code from any application: ⌃⌥C on a Mac, Ctrl+Alt+C elsewhere. */
export const DEFAULT_COPY_SHORTCUT = 'Control+Alt+C';

export interface Watch {
  address: string;
  /** Epoch ms. */
  startedAt: number;
  until: number;
}

/** What the newest email gave: the code, or its main link, or nothing (the finder was unsure). */
export interface Newest {
  emailId: string;
  subject: string;
  from: string;
  code: string | null;
  link: string | null;
}

export type ShortcutStatus = 'on' | 'off' | 'taken' | 'invalid' | 'unsupported';

export interface LoopState {
  watches: Watch[];
  newest: Newest | null;
  shortcut: { accelerator: string; status: ShortcutStatus };
}

/** An email that answered a watch: opened by the renderer, its code (or link) already on the clipboard. */
export interface WatchCaught {
  address: string;
  emailId: string;
  subject: string;
  copied: { kind: 'code' | 'link'; text: string } | null;
}

const RANDOM_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Ten characters a person can read back (no 0/o, 1/l): about 50 bits, from the bytes given. */
export function randomPart(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += RANDOM_ALPHABET[(bytes[i] ?? 0) % RANDOM_ALPHABET.length];
  return out;
}

/**
 * A pattern as the user may write it: `qa+{random}@myapp.test`, a bare domain
 * (`myapp.test`, `@myapp.test`), or an address (`qa@myapp.test`, which gets
 * `+{random}` before its @, as plus-addressing does).
 */
export function normalisePattern(pattern: string): string {
  const trimmed = pattern.trim();
  if (trimmed.includes('{random}')) return trimmed;
  if (!trimmed.includes('@')) return `{random}@${trimmed}`;
  if (trimmed.startsWith('@')) return `{random}${trimmed}`;
  const at = trimmed.lastIndexOf('@');
  return `${trimmed.slice(0, at)}+{random}${trimmed.slice(at)}`;
}

// RFC 5321's dot-atom for the local part (no quoting) and a host name of labels.
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** Why a pattern cannot make addresses (one sentence), or null. */
export function patternProblem(pattern: string): string | null {
  const normal = normalisePattern(pattern);
  if (normal.split('{random}').length !== 2) return 'Use {random} once, where the random part goes.';
  const sample = normal.replace('{random}', 'abcdefghij');
  const at = sample.lastIndexOf('@');
  if (at <= 0) return 'Write it as an address: qa+{random}@myapp.test, or just a domain.';
  const local = sample.slice(0, at);
  const domain = sample.slice(at + 1);
  if (!LOCAL.test(local) || local.length > 64) return `“${local}” cannot be the part before the @ of an address.`;
  if (!DOMAIN.test(domain)) return `“${domain}” is not a domain name.`;
  return null;
}

/** A fresh address from the pattern; null when the pattern cannot make one. */
export function freshAddress(pattern: string, random: string): string | null {
  if (patternProblem(pattern) !== null) return null;
  return normalisePattern(pattern).replace('{random}', random);
}

/** The domain of an address, for a server whose domain the user did not give: its newest email's inbox. */
export function domainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain = at > 0 ? address.slice(at + 1).trim().toLowerCase() : '';
  return DOMAIN.test(domain) ? domain : null;
}

/** An inbox answers a watch when it is the same address (domains and local parts compared as servers do here: ignoring case). */
export function answersWatch(watchAddress: string, inbox: string): boolean {
  return watchAddress.trim().toLowerCase() === inbox.trim().toLowerCase();
}

/** What goes to the clipboard for an email: its code, else its main link, else nothing. */
export function whatToCopy(found: Pick<Newest, 'code' | 'link'> | null): { kind: 'code' | 'link'; text: string } | null {
  if (found?.code) return { kind: 'code', text: found.code };
  if (found?.link) return { kind: 'link', text: found.link };
  return null;
}

const MODIFIERS = new Set(['Command', 'Cmd', 'Control', 'Ctrl', 'CommandOrControl', 'CmdOrCtrl', 'Alt', 'Option', 'AltGr', 'Shift', 'Super', 'Meta']);
const KEYS = /^(?:[A-Z0-9]|F(?:[1-9]|1[0-9]|2[0-4])|[)!@#$%^&*(:;+=<,_>.?/~`{}|\\[\]"'-]|Plus|Space|Tab|Backspace|Delete|Insert|Return|Enter|Up|Down|Left|Right|Home|End|PageUp|PageDown|Escape|Esc)$/i;

/**
 * Why a global shortcut cannot be used (one sentence), or null: Electron's
 * accelerator syntax, at least one modifier (a bare key would be taken from
 * every other application).
 */
export function acceleratorProblem(accelerator: string): string | null {
  const parts = accelerator.split('+').map((part) => part.trim());
  if (parts.some((part) => part === '')) return 'Write it as modifiers and a key joined by +, such as Control+Alt+C.';
  const key = parts.at(-1)!;
  const modifiers = parts.slice(0, -1);
  if (modifiers.length === 0) return 'A global shortcut needs a modifier (Control, Alt, Shift or Command): a bare key would be taken from every app.';
  const unknown = modifiers.find((part) => !MODIFIERS.has(part));
  if (unknown) return `“${unknown}” is not a modifier: use Control, Alt, Shift, Command or CommandOrControl.`;
  if (new Set(modifiers).size !== modifiers.length) return 'Each modifier once.';
  if (!KEYS.test(key)) return `“${key}” is not a key a shortcut can use.`;
  return null;
}

/** How a shortcut reads on this platform: ⌃⌥C on a Mac, Ctrl+Alt+C elsewhere. */
export function displayAccelerator(accelerator: string, mac: boolean): string {
  const mark: Record<string, [string, string]> = {
    Control: ['⌃', 'Ctrl'],
    Ctrl: ['⌃', 'Ctrl'],
    Alt: ['⌥', 'Alt'],
    Option: ['⌥', 'Alt'],
    Shift: ['⇧', 'Shift'],
    Command: ['⌘', 'Super'],
    Cmd: ['⌘', 'Super'],
    Super: ['⌘', 'Super'],
    Meta: ['⌘', 'Super'],
    CommandOrControl: ['⌘', 'Ctrl'],
    CmdOrCtrl: ['⌘', 'Ctrl'],
  };
  const parts = accelerator.split('+').map((part) => {
    const known = mark[part];
    return known ? known[mac ? 0 : 1] : part.length === 1 ? part.toUpperCase() : part;
  });
  return parts.join(mac ? '' : '+');
}

/** The tray's tooltip and menu: the newest code first, then the loop's own actions. */
export interface TrayView {
  /** Beside the icon in macOS's menu bar: the newest code, short. */
  title: string;
  tooltip: string;
  items: { id: 'copy-newest' | 'new-address' | 'show' | 'quit' | 'note'; label: string; enabled: boolean }[];
}

export function trayView(state: LoopState): TrayView {
  const newest = state.newest;
  const copyable = newest?.code ?? newest?.link ?? null;
  const subject = newest ? (newest.subject || '(no subject)').slice(0, 60) : '';
  const items: TrayView['items'] = [];
  if (newest?.code) items.push({ id: 'copy-newest', label: `Copy ${newest.code}`, enabled: true });
  else if (newest?.link) items.push({ id: 'copy-newest', label: 'Copy the newest email’s link', enabled: true });
  else items.push({ id: 'copy-newest', label: newest ? 'The newest email has no code' : 'No email yet', enabled: false });
  if (newest) items.push({ id: 'note', label: `${newest.from}: ${subject}`, enabled: false });
  for (const watch of state.watches) items.push({ id: 'note', label: `Watching ${watch.address}`, enabled: false });
  items.push({ id: 'new-address', label: 'New address to test with', enabled: true }, { id: 'show', label: 'Show Inbox Desk', enabled: true }, { id: 'quit', label: 'Quit', enabled: true });
  return {
    title: newest?.code ?? '',
    tooltip: newest ? (copyable ? `Inbox Desk: ${newest.code ?? 'a link'} (${subject})` : `Inbox Desk: ${subject}`) : 'Inbox Desk',
    items,
  };
}
