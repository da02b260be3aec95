import { useEffect } from 'react';
import { useStore } from '../../store.ts';
import { actionFor, type Action } from './shortcuts.ts';

function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
}

/** The reader's scrolling box, when an email is open. */
function readerBox(): HTMLElement | null {
  return useStore.getState().openId ? document.querySelector<HTMLElement>('.message-pane') : null;
}

/** Scrolls the open email; answers false when there is nothing (more) to scroll that way. */
function scrollReader(kind: 'page-down' | 'page-up' | 'line-down' | 'line-up' | 'top' | 'bottom'): boolean {
  const box = readerBox();
  if (!box) return false;
  const page = Math.max(40, box.clientHeight - 48);
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
  if (kind === 'page-down' && atEnd) return false;
  const by = { 'page-down': page, 'page-up': -page, 'line-down': 40, 'line-up': -40, top: -box.scrollHeight, bottom: box.scrollHeight }[kind];
  box.scrollBy({ top: by });
  return true;
}

/**
 * Where focus belongs when nothing else has it: the view's own list (or the
 * open form). Focus never rests on <body>, so Tab and the keys carry on from
 * where the user is.
 */
export function focusHome(): void {
  const s = useStore.getState();
  const target =
    s.view === 'inbox'
      ? document.getElementById('email-list')
      : s.view === 'automations'
        ? (document.getElementById('automation-form') ?? document.getElementById('automation-list'))
        : // The form itself, not a field in it: g i and the other keys still work from there.
          document.getElementById('account-form');
  target?.focus({ preventScroll: true });
}

let focusCheck = false;
/** After whatever just happened, if focus fell to <body>, it goes home (one check per frame). */
function keepFocus(): void {
  if (focusCheck) return;
  focusCheck = true;
  requestAnimationFrame(() => {
    focusCheck = false;
    if (!document.activeElement || document.activeElement === document.body) focusHome();
  });
}

function runInRules(action: Action): boolean {
  const s = useStore.getState();
  switch (action) {
    case 'next':
    case 'arrow-down':
      s.moveAutomationSelection(1);
      return true;
    case 'previous':
    case 'arrow-up':
      s.moveAutomationSelection(-1);
      return true;
    case 'open':
      if (s.selectedAutomationId) s.editAutomation(s.selectedAutomationId);
      return true;
    case 'delete':
      if (s.selectedAutomationId) s.askRemoveAutomation(s.selectedAutomationId);
      return true;
    case 'undo':
      void s.undoRemoveAutomation();
      return true;
    case 'focus-search':
      document.getElementById('automation-filter')?.focus();
      return true;
    default:
      return false;
  }
}

export function run(action: Action): void {
  const s = useStore.getState();
  const inInbox = s.view === 'inbox';
  // The rule list (no form open) takes the list keys: j/k, Enter, #, z, /.
  if (s.view === 'automations' && !s.editingId && runInRules(action)) return;
  switch (action) {
    case 'next':
    case 'previous':
      if (inInbox) s.moveSelection(action === 'next' ? 1 : -1);
      break;
    case 'arrow-down':
    case 'arrow-up':
      // Reading: the arrows scroll the email. In the list: they move.
      if (inInbox && !scrollReader(action === 'arrow-down' ? 'line-down' : 'line-up')) s.moveSelection(action === 'arrow-down' ? 1 : -1);
      break;
    case 'top':
    case 'bottom':
      if (inInbox) s.moveSelection(action === 'top' ? -1_000_000 : 1_000_000);
      break;
    case 'back':
      if (s.openId) s.closeMessage();
      s.setView('inbox');
      document.getElementById('email-list')?.focus();
      break;
    case 'undo':
      void s.undoDelete();
      break;
    case 'page-down':
      // Space at the end of an email goes on to the next one, as in mutt and Gmail's reading pane.
      if (inInbox && s.openId && !scrollReader('page-down')) s.moveSelection(1);
      break;
    case 'page-up':
      scrollReader('page-up');
      break;
    case 'reader-top':
      scrollReader('top');
      break;
    case 'reader-bottom':
      scrollReader('bottom');
      break;
    case 'open':
      if (inInbox) void s.openMessage();
      break;
    case 'close': {
      // One press does what the help says: leave the field you are typing in, else close the form or the email.
      const active = document.activeElement;
      if (s.shortcutsOpen) s.toggleShortcuts(false);
      else if (inTextField(active)) {
        (active as HTMLElement).blur();
        focusHome();
      } else if (s.editingId) s.cancelEdit();
      else if (s.compat && s.compat.id === s.openId) {
        // The compatibility check closes one step at a time: the source line, then the report.
        if (s.compat.line !== null) void s.showSourceLine(null);
        else useStore.setState({ compat: null });
        focusHome();
      } else if (s.openId) {
        s.closeMessage();
        focusHome();
      }
      break;
    }
    case 'next-page':
      if (inInbox) s.goToPage(s.page + 1);
      break;
    case 'previous-page':
      if (inInbox) s.goToPage(s.page - 1);
      break;
    case 'favorite':
      if (inInbox && s.checked.length > 0) void s.bulk('star');
      else if (inInbox) void s.toggleFavorite(s.openId ?? undefined);
      break;
    case 'rule-from-email': {
      const email = s.email ?? s.list?.data.find((e) => e.id === s.selectedId);
      if (email) s.ruleFromEmail(email);
      break;
    }
    case 'toggle-check':
      if (inInbox && s.selectedId) s.toggleChecked(s.selectedId);
      break;
    case 'extend-down':
    case 'extend-up':
      if (inInbox && s.selectedId) {
        if (!s.checked.includes(s.selectedId)) s.toggleChecked(s.selectedId);
        s.moveSelection(action === 'extend-down' ? 1 : -1);
        const next = useStore.getState().selectedId;
        if (next && !useStore.getState().checked.includes(next)) useStore.getState().toggleChecked(next);
      }
      break;
    case 'check-all':
      if (inInbox) s.checkAll(true);
      break;
    case 'check-none':
      if (inInbox) s.checkAll(false);
      break;
    case 'delete':
      if (inInbox && s.checked.length > 0) s.askBulkDelete();
      else if (inInbox) s.askDeleteEmail();
      break;
    case 'toggle-unread':
      if (inInbox) s.toggleIsTerm('unread');
      break;
    case 'toggle-favorites':
      if (inInbox) s.toggleIsTerm('starred');
      break;
    case 'focus-search': {
      // Focus at once when the field is there, so keys typed right after '/' land in it.
      const search = document.getElementById('search');
      if (search) search.focus();
      else {
        s.setView('inbox');
        requestAnimationFrame(() => document.getElementById('search')?.focus());
      }
      break;
    }
    case 'refresh':
      if (s.view === 'automations') void s.loadAutomations();
      else void s.loadList({ fresh: true });
      break;
    case 'format-html':
      void s.setFormat('html');
      break;
    case 'format-text':
      void s.setFormat('text');
      break;
    case 'format-raw':
      void s.setFormat('raw');
      break;
    case 'load-remote':
      s.allowRemote();
      break;
    case 'save-attachment':
      s.chooseAttachment();
      break;
    case 'format-headers':
      void s.showHeaders();
      break;
    case 'go-inbox':
      s.setView('inbox');
      break;
    case 'go-automations':
      s.setView('automations');
      break;
    case 'go-settings':
      s.setView('settings');
      break;
    case 'new-automation':
      // The form's title field takes focus as it mounts.
      if (s.view === 'automations' && !s.automationsLack.create && s.automationsError?.kind !== 'forbidden') s.editAutomation('new');
      break;
    case 'copy-code':
    case 'copy-link':
      if (s.openId) void s.copyInsight(action === 'copy-code' ? 'code' : 'link');
      break;
    case 'save-eml':
      if (s.openId) void s.saveRawMessage();
      break;
    case 'preview-width':
      s.cyclePreviewWidth();
      break;
    case 'preview-dark':
      s.togglePreviewDark();
      break;
    case 'check-links':
      if (s.openId) void s.checkLinks();
      break;
    case 'check-html':
      if (s.openId) void s.checkCompatibility();
      break;
    case 'print':
    case 'save-pdf':
      if (s.openId) void s.printEmail(action === 'save-pdf');
      break;
    case 'shortcuts':
      s.toggleShortcuts();
      break;
  }
}

/** One keydown listener for the whole app. */
export function useKeyboard(): void {
  useEffect(() => {
    let prefix: false | 'g' | '*' = false;
    const onKey = (event: KeyboardEvent) => {
      // Ctrl/Cmd+P: the open email, printed as shown (never the app's own window).
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'p') {
        event.preventDefault();
        run('print');
        return;
      }
      // Ctrl/Cmd+K: the command palette, from anywhere, fields included.
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        const s = useStore.getState();
        useStore.setState({ paletteOpen: !s.paletteOpen, shortcutsOpen: false });
        return;
      }
      // A modal owns the keyboard: nothing behind it reacts.
      const state = useStore.getState();
      if (state.shortcutsOpen || state.paletteOpen || state.attachmentChooserOpen || state.leaveGuard) return;
      const action = actionFor(
        { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, shiftKey: event.shiftKey, inField: inTextField(event.target) },
        prefix,
      );
      prefix = action === 'g' || action === '*' ? action : false;
      if (action === null || action === 'g' || action === '*') return;
      // Buttons and links keep Enter and Space for themselves.
      if ((action === 'open' || action === 'page-down') && event.target instanceof HTMLElement && event.target.closest('button, a, select')) return;
      event.preventDefault();
      run(action);
      keepFocus();
    };
    window.addEventListener('keydown', onKey);
    // A control that goes away with the focus in it (a chip's ✕, a closed dialog) hands it back home.
    const onFocusOut = () => keepFocus();
    document.addEventListener('focusout', onFocusOut);
    // At launch, and after any change of state (a view, a list, a reader or a panel that went away with
    // the focus in it: Chromium sends no focusout for a removed element), focus goes home if nothing has it.
    const unsubscribe = useStore.subscribe(() => keepFocus());
    keepFocus();
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('focusout', onFocusOut);
      unsubscribe();
    };
  }, []);
}
