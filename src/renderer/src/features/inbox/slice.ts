import type { BridgeError, Results } from '../../../../shared/contract.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import type { ListQuery } from '../../../../shared/domain/list-query.ts';
import { toggleIs } from '../../../../shared/domain/search-query.ts';
import type { Effects } from '../../effects.ts';
import type { Slice } from '../../store.ts';
import { nextSelection } from '../list-cursor.ts';
import { arrivals, listQueryFor, visibleRows } from './list-view.ts';
import { pendingWrites } from './pending-writes.ts';
import { inboxWrites } from './writes.ts';

export { arrivals, listQueryFor, visibleRows } from './list-view.ts';

const RECENT_KEY = 'inbox-desk:recent-searches';
const RECENT_MAX = 10;
const KNOWN_MAX = 500;

function loadRecent(storage: Effects['storage']): string[] {
  try {
    const value: unknown = JSON.parse(storage.getItem(RECENT_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

export interface InboxSlice {
  /** What is typed in the search box. */
  searchText: string;
  /** The search the list on screen was asked with. */
  search: string;
  page: number;
  list: Results['listEmails'] | null;
  listLoading: boolean;
  listError: BridgeError | null;
  selectedId: string | null;
  /** Addresses seen in lists: offered for a partial from: or to:. */
  knownAddresses: { senders: string[]; inboxes: string[] };
  recentSearches: string[];
  /** Mail that arrived by polling and is not looked at yet. */
  newIds: string[];
  /** Enter or ↓ in the search box: the list takes focus once it shows. */
  listFocusRequested: boolean;
  /** The rows shown are the first screen as it stood at this time (main's snapshot), until the server answers. */
  listFrom: string | null;
  /** Paints the snapshot main kept, unless the server's page is already there. */
  showSnapshot: () => Promise<void>;
  /** `fresh`: the user asked to refresh, so main's page cache is skipped. */
  loadList: (options?: { fresh?: boolean }) => Promise<void>;
  setSearchText: (text: string) => void;
  /** Runs what is typed (when it has no errors); `remember` keeps it in the recent searches. */
  applySearch: (options?: { remember?: boolean }) => void;
  toggleIsTerm: (value: 'unread' | 'starred') => void;
  /** `land`: which row to select once the page is there (j past the last row lands on the next page's first). */
  goToPage: (page: number, land?: 'first' | 'last') => void;
  landOn: 'first' | 'last' | null;
  select: (id: string | null) => void;
  moveSelection: (delta: number) => void;
  toggleFavorite: (id?: string) => Promise<void>;
  /** Deletes with Undo (undoable-removal.ts): the email leaves the screen now, the server after UNDO_MS. */
  deleteEmail: (id?: string) => Promise<void>;
  /** Asks first when settings say so, then deletes the open email, or the highlighted one. */
  askDeleteEmail: () => void;
  /** Undoes the newest delete still in its window (or the one holding `id`). */
  undoDelete: (id?: string) => Promise<void>;
  /**
   * Every email that arrived up to the newest one shown: gone from the screen now, from the server
   * after UNDO_MS (z brings them back meanwhile); mail arriving meanwhile stays. Where the server offers it.
   */
  deleteAll: () => Promise<void>;
  /** A delete-all still in its undo window: its `through`, and the page it took away. */
  deletedAll: { through: string; list: NonNullable<InboxSlice['list']>; undoable?: boolean; account?: string } | null;
  /** Puts a deleted email back where it was (its DELETE failed). */
  restoreDeleted: (id: string, error?: BridgeError) => void;
  /** Main sent a waiting delete and the server took it (deleteSettled). */
  deleteSettled: (id: string, kind: 'email' | 'automation' | 'all') => void;
  /** The delete-all sent after its window failed (deleteFailed, kind all): every email is back, and the notice says so. */
  deleteAllFailed: (through: string, error: BridgeError) => void;
  /** Emails picked with x, J/K or * a, for s and # to act on together. */
  checked: string[];
  toggleChecked: (id: string) => void;
  checkAll: (on: boolean) => void;
  /** Stars (or unstars) or deletes every checked email, one request at a time, with a progress line. */
  bulk: (kind: 'star' | 'delete') => Promise<void>;
  /** Asks first when settings say so, then deletes every checked email. */
  askBulkDelete: () => void;
  bulkProgress: { label: string; done: number; total: number } | null;
  patchListEmail: (email: Email) => void;
  /** Tells main what to poll, and whether the window can be seen. */
  watchList: () => void;
  /** Page 1 as main just polled it: new mail slides in at the top. */
  mergePolled: (query: ListQuery, page: Results['listEmails']) => void;
  /** Another account is shown: its page 1, from the start (nothing of the previous one stays). */
  showAccount: () => void;
  clearNew: () => void;
}

const queryKey = (query: ListQuery) => JSON.stringify({ ...query, page: 1 });

export const createInboxSlice: Slice<InboxSlice> = (effects) => (set, get) => {
  const { call, clock, storage } = effects;
  // What is on screen but not yet on the server (pending-writes.ts): every list, poll and refresh reads it.
  const room = pendingWrites(effects, set, get);
  let listSequence = 0;

  return {
    ...inboxWrites(effects, set, get, room),
    searchText: '',
    search: '',
    page: 1,
    list: null,
    listLoading: false,
    listError: null,
    selectedId: null,
    knownAddresses: { senders: [], inboxes: [] },
    recentSearches: loadRecent(storage),
    newIds: [],
    listFocusRequested: false,
    listFrom: null,
    showSnapshot: async () => {
      try {
        const snapshot = await call('getSnapshot', undefined);
        // The fresh page won the race, or the user already moved on: the snapshot has nothing to add.
        if (!snapshot || get().list !== null || get().search !== '' || get().page !== 1) return;
        set({ list: snapshot.page, listFrom: snapshot.at, selectedId: get().selectedId ?? snapshot.page.data[0]?.id ?? null });
        globalThis.performance?.mark?.('inbox-desk:snapshot-shown');
      } catch {
        // No snapshot: the first screen waits for the server, as before.
      }
    },
    landOn: null,

    loadList: async (options = {}) => {
      const sequence = ++listSequence;
      const { search, page, settings } = get();
      const { query, errors } = listQueryFor(search, page, settings.pageSize);
      // A search with an error is shown in place and never sent.
      if (errors.length > 0) return;
      set({ listLoading: true });
      const askedAt = clock.now();
      try {
        const answered = await call('listEmails', options.fresh ? { ...query, fresh: true } : query);
        if (sequence !== listSequence) return;
        // Mail deleted on screen stays gone until main says its DELETE settled; so does what a
        // delete-all took (mail that arrived after it shows).
        const through = room.pendingAll()?.through ?? null;
        const kept = answered.data.filter((e) => !room.hides(e));
        // What the server still counts: every delete waiting, or (a list read before one settled) the rows it still had.
        const waiting = through !== null ? answered.data.length - kept.length : Math.max(room.removal.pendingCount(), answered.data.length - kept.length);
        // The server still counts them until the DELETE goes: the pages shown do not.
        const total = through !== null ? kept.length : Math.max(0, answered.meta.total - waiting);
        const list = {
          ...answered,
          data: room.withStars(kept, askedAt),
          meta: waiting === 0 ? answered.meta : { ...answered.meta, total, last_page: Math.max(1, Math.ceil(total / answered.meta.per_page)) },
        };
        const ids = list.data.map((e) => e.id);
        const selectedId = get().selectedId;
        const landing = get().landOn !== null;
        const known = get().knownAddresses;
        const add = (existing: string[], more: string[]) => [...new Set([...existing, ...more])].slice(-KNOWN_MAX);
        set({
          knownAddresses: {
            senders: add(known.senders, list.data.map((e) => e.sender.email)),
            inboxes: add(known.inboxes, list.data.map((e) => e.inbox.email)),
          },
          list,
          listFrom: null,
          listLoading: false,
          listError: null,
          selectedId: get().landOn === 'last' ? (ids.at(-1) ?? null) : selectedId !== null && ids.includes(selectedId) ? selectedId : (ids[0] ?? null),
          landOn: null,
          checked: get().checked.filter((c) => ids.includes(c)),
        });
        // j/k across a page with the reader open: the reader follows onto the new page.
        const landedOn = get().selectedId;
        if (landing && get().openId !== null && landedOn !== null && landedOn !== get().openId) void get().openMessage(landedOn);
        get().clearOutage();
        get().watchList();
      } catch (error) {
        if (sequence !== listSequence) return;
        // The list on screen, the page and the selection all stay as they were.
        set({ listLoading: false, listError: get().failed(error, 'list', () => void get().loadList(options)) });
      }
    },

    setSearchText: (searchText) => set({ searchText }),

    applySearch: (options = {}) => {
      const text = get().searchText.trim();
      if (listQueryFor(text, 1, 1).errors.length > 0) return;
      if (options.remember && text) {
        const recentSearches = [text, ...get().recentSearches.filter((r) => r !== text)].slice(0, RECENT_MAX);
        set({ recentSearches });
        try {
          storage.setItem(RECENT_KEY, JSON.stringify(recentSearches));
        } catch {
          // Private storage may be unavailable: recents then last for the session.
        }
      }
      if (text === get().search && get().list) return;
      set({ search: text, page: 1, newIds: [] });
      void get().loadList();
    },

    toggleIsTerm: (value) => {
      set({ searchText: toggleIs(get().searchText, value) });
      get().applySearch();
    },

    watchList: () => {
      const { search, settings } = get();
      const { query, errors } = listQueryFor(search, 1, settings.pageSize);
      void call('watchList', { query: errors.length > 0 ? null : query, visible: effects.visible() }).catch(() => undefined);
    },

    mergePolled: (query, polled) => {
      const { list, search, page, settings } = get();
      if (!list || queryKey(query) !== queryKey(listQueryFor(search, 1, settings.pageSize).query)) return;
      // Mail deleted with "delete all" stays off the screen while its undo window is open; what arrived after shows.
      const fresh = arrivals(list.data, room.withStars(polled.data)).filter((e) => !room.hides(e));
      // What the server now says of mail on screen (read, starred) is taken as is.
      const updated = new Map(room.withStars(polled.data).map((e) => [e.id, e]));
      // Page 1 as the server has it: a row it no longer holds (retention pruned it, another client deleted it)
      // leaves the screen, but for the email being read. A row older than a full page's last is on page 2 now.
      const oldestPolled = polled.data.length >= settings.pageSize ? Date.parse(polled.data.at(-1)!.created_at) : -Infinity;
      const gone = (e: Email) => page === 1 && !updated.has(e.id) && Date.parse(e.created_at) >= oldestPolled && e.id !== get().openId;
      const data = list.data.filter((e) => !gone(e)).map((e) => updated.get(e.id) ?? e);
      if (fresh.length === 0) {
        const shown = page === 1 ? { total: polled.meta.total, last_page: polled.meta.last_page, from: data.length > 0 ? 1 : null, to: data.length } : {};
        set({ list: { ...list, data, meta: { ...list.meta, ...shown } } });
        return;
      }
      // On page 1 new mail slides in at the top, and the page stays a page: the last rows go on to
      // page 2 (never the chosen or open one). Elsewhere it is only counted. Selection and open email stay.
      const keep = [get().selectedId, get().openId];
      const grown = [...fresh, ...data];
      let cut = Math.max(settings.pageSize, data.length);
      while (cut < grown.length && grown.slice(cut).some((e) => keep.includes(e.id))) cut += 1;
      // The pager counts the rows shown (more than a page while the highlighted one is kept).
      const meta = { ...list.meta, total: polled.meta.total, last_page: polled.meta.last_page, from: 1, to: Math.min(cut, grown.length) };
      set({
        list: page === 1 ? { ...list, data: grown.slice(0, cut), meta } : { ...list, data },
        newIds: [...fresh.map((e) => e.id), ...get().newIds],
      });
    },

    clearNew: () => set({ newIds: [] }),

    showAccount: () => {
      set({ list: null, selectedId: null, page: 1, listError: null, newIds: [], checked: [] });
      void get().loadList();
    },

    goToPage: (page, land) => {
      const last = get().list?.meta.last_page ?? 1;
      const target = Math.min(Math.max(1, page), Math.max(1, last));
      if (target === get().page && get().list) return;
      set({ page: target, selectedId: null, newIds: [], landOn: land ?? null });
      void get().loadList();
    },

    select: (id) => set({ selectedId: id }),

    moveSelection: (delta) => {
      const ids = visibleRows(get().list, get().search).map((e) => e.id);
      const at = get().selectedId === null ? -1 : ids.indexOf(get().selectedId!);
      const { page, list } = get();
      // Past the last row, j goes on to the next page's first; before the first, k to the previous page's last (Gmail).
      if (delta === 1 && at === ids.length - 1 && list && page < list.meta.last_page) return get().goToPage(page + 1, 'first');
      if (delta === -1 && at === 0 && page > 1) return get().goToPage(page - 1, 'last');
      const selectedId = nextSelection(ids, get().selectedId, delta);
      set({ selectedId });
      // With the reader open, it follows the selection.
      if (get().openId !== null && selectedId !== null && selectedId !== get().openId) void get().openMessage(selectedId);
    },

    patchListEmail: (email) => {
      const list = get().list;
      if (!list) return;
      set({ list: { ...list, data: list.data.map((e) => (e.id === email.id ? { ...e, ...email } : e)) } });
    },

  };
};
