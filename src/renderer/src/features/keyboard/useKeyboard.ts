import { useEffect } from 'react';
import { useStore } from '../../store.ts';
import { actionFor, type Action } from './shortcuts.ts';

function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
}

export function run(action: Action): void {
  const s = useStore.getState();
  const inInbox = s.view === 'inbox';
  switch (action) {
    case 'next':
    case 'previous':
      if (inInbox) s.moveSelection(action === 'next' ? 1 : -1);
      break;
    case 'open':
      if (inInbox) void s.openMessage();
      break;
    case 'close':
      if (s.shortcutsOpen) s.toggleShortcuts(false);
      else if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) document.activeElement.blur();
      else if (s.editingId) s.cancelEdit();
      else if (s.openId) s.closeMessage();
      break;
    case 'next-page':
      if (inInbox) s.goToPage(s.page + 1);
      break;
    case 'previous-page':
      if (inInbox) s.goToPage(s.page - 1);
      break;
    case 'favorite':
      if (inInbox) void s.toggleFavorite();
      break;
    case 'delete':
      if (inInbox && s.selectedId && (!s.settings.confirmDelete || window.confirm('Delete this email?'))) void s.deleteEmail();
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
    case 'save-attachment': {
      const first = s.email?.attachments[0];
      if (first) void s.saveAttachment(first.id);
      break;
    }
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
      if (s.view === 'automations') s.editAutomation('new');
      break;
    case 'shortcuts':
      s.toggleShortcuts();
      break;
  }
}

/** One keydown listener for the whole app. */
export function useKeyboard(): void {
  useEffect(() => {
    let afterG = false;
    const onKey = (event: KeyboardEvent) => {
      const action = actionFor(
        { key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, inField: inTextField(event.target) },
        afterG,
      );
      afterG = action === 'g';
      if (action === null || action === 'g') return;
      // Buttons and links keep Enter for themselves.
      if (action === 'open' && event.target instanceof HTMLElement && event.target.closest('button, a')) return;
      event.preventDefault();
      run(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
