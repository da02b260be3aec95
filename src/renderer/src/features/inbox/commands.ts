import { useStore } from '../../store.ts';
import type { Command, Context } from '../commands/registry.ts';
import { scrollReader } from '../message/reader-scroll.ts';

const s = () => useStore.getState();
export const inInbox = (c: Context) => c.view === 'inbox';
/** The rule list takes the list keys (j/k, Enter, #, z, /) while no rule's form is open. */
export const inRuleList = (c: Context) => c.view === 'automations' && !c.formOpen;

function extend(by: 1 | -1): void {
  const state = s();
  if (!state.selectedId) return;
  if (!state.checked.includes(state.selectedId)) state.toggleChecked(state.selectedId);
  state.moveSelection(by);
  const next = s().selectedId;
  if (next && !s().checked.includes(next)) s().toggleChecked(next);
}

export const INBOX_COMMANDS: Command[] = [
  { id: 'inbox.next', title: 'Next email', group: 'Inbox', keys: ['j'], when: inInbox, run: () => s().moveSelection(1) },
  { id: 'inbox.previous', title: 'Previous email', group: 'Inbox', keys: ['k'], when: inInbox, run: () => s().moveSelection(-1) },
  {
    id: 'inbox.down',
    title: 'Next email, or scroll down while reading',
    group: 'Inbox',
    keys: ['ArrowDown'],
    when: inInbox,
    hiddenFromPalette: true,
    run: () => void (scrollReader('line-down') || s().moveSelection(1)),
  },
  {
    id: 'inbox.up',
    title: 'Previous email, or scroll up while reading',
    group: 'Inbox',
    keys: ['ArrowUp'],
    when: inInbox,
    hiddenFromPalette: true,
    run: () => void (scrollReader('line-up') || s().moveSelection(-1)),
  },
  { id: 'inbox.first', title: 'First email on the page', group: 'Inbox', keys: ['g g'], when: inInbox, run: () => s().moveSelection(-1_000_000) },
  { id: 'inbox.last', title: 'Last email on the page', group: 'Inbox', keys: ['G'], when: inInbox, run: () => s().moveSelection(1_000_000) },
  { id: 'inbox.open', title: 'Open email', group: 'Inbox', keys: ['Enter', 'o'], when: (c) => inInbox(c) && !c.onControl, run: () => void s().openMessage() },
  { id: 'inbox.next-page', title: 'Next page', group: 'Inbox', keys: ['n', 'ArrowRight'], when: inInbox, run: () => s().goToPage(s().page + 1) },
  { id: 'inbox.previous-page', title: 'Previous page', group: 'Inbox', keys: ['p', 'ArrowLeft'], when: inInbox, run: () => s().goToPage(s().page - 1) },
  {
    id: 'inbox.star',
    title: 'Star / unstar',
    group: 'Inbox',
    keys: ['s'],
    when: inInbox,
    run: () => (s().checked.length > 0 ? void s().bulk('star') : void s().toggleFavorite(s().openId ?? undefined)),
  },
  {
    id: 'inbox.delete',
    title: 'Delete',
    group: 'Inbox',
    keys: ['#', 'Delete'],
    when: inInbox,
    run: () => (s().checked.length > 0 ? s().askBulkDelete() : s().askDeleteEmail()),
  },
  // No key of its own: a palette entry (and a button on This computer), as drastic as it is.
  { id: 'inbox.delete-all', title: 'Delete every email (with Undo)', group: 'Inbox', keys: [], when: inInbox, run: () => void s().deleteAll() },
  { id: 'inbox.undo', title: 'Undo the last delete', group: 'Inbox', keys: ['z'], when: (c) => !inRuleList(c), run: () => void s().undoDelete() },
  { id: 'inbox.toggle-check', title: 'Select / unselect the email', group: 'Inbox', keys: ['x'], when: inInbox, run: () => void (s().selectedId && s().toggleChecked(s().selectedId!)) },
  { id: 'inbox.extend-down', title: 'Extend the selection down', group: 'Inbox', keys: ['J'], when: inInbox, run: () => extend(1) },
  { id: 'inbox.extend-up', title: 'Extend the selection up', group: 'Inbox', keys: ['K'], when: inInbox, run: () => extend(-1) },
  { id: 'inbox.check-all', title: 'Select all on this page', group: 'Inbox', keys: ['* a'], when: inInbox, run: () => s().checkAll(true) },
  { id: 'inbox.check-none', title: 'Select none', group: 'Inbox', keys: ['* n'], when: inInbox, run: () => s().checkAll(false) },
  { id: 'inbox.unread-only', title: 'Only unread', group: 'Inbox', keys: ['U'], when: inInbox, run: () => s().toggleIsTerm('unread') },
  { id: 'inbox.starred-only', title: 'Only starred', group: 'Inbox', keys: ['f'], when: inInbox, run: () => s().toggleIsTerm('starred') },
  {
    id: 'inbox.search',
    title: 'Search',
    group: 'Inbox',
    keys: ['/'],
    when: (c) => !inRuleList(c),
    run: () => {
      // Focus at once when the field is there, so keys typed right after '/' land in it.
      const search = document.getElementById('search');
      if (search) search.focus();
      else {
        s().setView('inbox');
        requestAnimationFrame(() => document.getElementById('search')?.focus());
      }
    },
  },
  {
    id: 'inbox.refresh',
    title: 'Refresh',
    group: 'Inbox',
    keys: ['r'],
    run: () => (s().view === 'automations' ? void s().loadAutomations() : void s().loadList({ fresh: true })),
  },
];
