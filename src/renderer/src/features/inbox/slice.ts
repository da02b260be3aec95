import type { StateCreator } from 'zustand';
import type { BridgeError } from '../../../../shared/contract.ts';
import type { Results } from '../../../../shared/contract.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import type { ListQuery } from '../../../../shared/domain/list-query.ts';
import { parseSearch, planSearch, toggleIs } from '../../../../shared/domain/search-query.ts';
import { UNDO_MS } from '../../../../shared/domain/settings.ts';
import { asBridgeError, call } from '../../bridge.ts';
import { OUTAGE_KINDS } from '../../outage.ts';
import type { AppState } from '../../store.ts';

/** The search box's plan for a page: what the server is asked, what is narrowed here, what is wrong. Pure. */
export function listQueryFor(search: string, page: number, pageSize: number, now: Date = new Date()) {
  const parsed = parseSearch(search, now);
  const plan = planSearch(parsed, now);
  const query: ListQuery = { page, limit: pageSize, ...plan.query };
  return { query, onPage: plan.onPage, partial: plan.partial, errors: parsed.errors };
}

/** The rows shown: the page, narrowed by what the server cannot filter on. Pure. */
export function visibleRows(list: Results['listEmails'] | null, search: string): Email[] {
  if (!list) return [];
  const { onPage } = listQueryFor(search, 1, 1);
  return onPage.hasAttachment ? list.data.filter((e) => e.attachments.length > 0) : list.data;
}

/** Mail in a polled page 1 that the list on screen does not show yet, newest first. Pure. */
export function arrivals(shown: Email[], polled: Email[]): Email[] {
  const known = new Set(shown.map((e) => e.id));
  const newest = shown.reduce((max, e) => (e.created_at > max ? e.created_at : max), '');
  return polled.filter((e) => !known.has(e.id) && e.created_at >= newest);
}

const RECENT_KEY = 'inbox-desk:recent-searches';
const RECENT_MAX = 10;
const KNOWN_MAX = 500;

function loadRecent(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]');
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
  /** `fresh`: the user asked to refresh, so main's page cache is skipped. */
  loadList: (options?: { fresh?: boolean }) => Promise<void>;
  setSearchText: (text: string) => void;
  /** Runs what is typed (when it has no errors); `remember` keeps it in the recent searches. */
  applySearch: (options?: { remember?: boolean }) => void;
  toggleIsTerm: (value: 'unread' | 'starred') => void;
  goToPage: (page: number) => void;
  select: (id: string | null) => void;
  moveSelection: (delta: number) => void;
  toggleFavorite: (id?: string) => Promise<void>;
  /** Deletes with Undo: the email leaves the screen now, the server after UNDO_MS. */
  deleteEmail: (id?: string, options?: { quiet?: boolean }) => Promise<void>;
  /** The emails of the last bulk delete, for z. */
  lastBulkDeleted: string[] | null;
  /** Undoes the last delete (or `id`) while its window is open. */
  undoDelete: (id?: string) => Promise<void>;
  /** Puts a deleted email back where it was (undone, or its DELETE failed). */
  restoreDeleted: (id: string, error?: BridgeError) => void;
  /** Deleted on screen, waiting for the undo window to close. */
  pendingDeletes: Record<string, { email: Email; index: number }>;
  lastDeleted: string | null;
  /** Emails picked with x, J/K or * a, for s and # to act on together. */
  checked: string[];
  toggleChecked: (id: string) => void;
  checkAll: (on: boolean) => void;
  /** Stars (or unstars) or deletes every checked email, one request at a time, with a progress line. */
  bulk: (kind: 'star' | 'delete') => Promise<void>;
  bulkProgress: { label: string; done: number; total: number } | null;
  patchListEmail: (email: Email) => void;
  /** Tells main what to poll, and whether the window can be seen. */
  watchList: () => void;
  /** Page 1 as main just polled it: new mail slides in at the top. */
  mergePolled: (query: ListQuery, page: Results['listEmails']) => void;
  clearNew: () => void;
}

/** Where the selection goes when `delta` rows away; stays inside the page. Pure. */
export function nextSelection(ids: string[], current: string | null, delta: number): string | null {
  if (ids.length === 0) return null;
  const index = current === null ? -1 : ids.indexOf(current);
  if (index === -1) return delta >= 0 ? ids[0]! : ids[ids.length - 1]!;
  return ids[Math.min(ids.length - 1, Math.max(0, index + delta))]!;
}

let listSequence = 0;

const queryKey = (query: ListQuery) => JSON.stringify({ ...query, page: 1 });

export const createInboxSlice: StateCreator<AppState, [], [], InboxSlice> = (set, get) => ({
  searchText: '',
  search: '',
  page: 1,
  list: null,
  listLoading: false,
  listError: null,
  selectedId: null,
  knownAddresses: { senders: [], inboxes: [] },
  recentSearches: loadRecent(),
  newIds: [],
  listFocusRequested: false,
  pendingDeletes: {},
  lastDeleted: null,
  checked: [],
  bulkProgress: null,
  lastBulkDeleted: null,

  toggleChecked: (id) => {
    const checked = get().checked;
    set({ checked: checked.includes(id) ? checked.filter((c) => c !== id) : [...checked, id] });
  },

  checkAll: (on) => set({ checked: on ? visibleRows(get().list, get().search).map((e) => e.id) : [] }),

  bulk: async (kind) => {
    const rows = visibleRows(get().list, get().search).filter((e) => get().checked.includes(e.id));
    if (rows.length === 0 || get().bulkProgress) return;
    if (kind === 'delete') {
      // One undo for the lot: each DELETE waits in main for the same window.
      const subjects = rows.length;
      for (const email of rows) await get().deleteEmail(email.id, { quiet: true });
      const ids = rows.map((e) => e.id);
      set({ checked: [], lastDeleted: null, lastBulkDeleted: ids });
      get().notify({ kind: 'not-found', message: `Deleted ${subjects} emails.`, details: {} }, 'info', {
        action: { label: 'Undo (z)', run: () => void get().undoDelete() },
        ms: UNDO_MS,
      });
      return;
    }
    // Star them all unless all are starred already: then unstar them all.
    const favorite = rows.some((e) => !e.favorite);
    const label = favorite ? 'Starring' : 'Unstarring';
    set({ bulkProgress: { label, done: 0, total: rows.length } });
    for (const [index, email] of rows.entries()) {
      if (email.favorite !== favorite) {
        // Within the budget: wait out a 429 rather than fail the rest.
        const blocked = get().rateLimit.blockedUntil;
        if (blocked && blocked > Date.now()) await new Promise((r) => setTimeout(r, blocked - Date.now()));
        await get().toggleFavorite(email.id);
      }
      set({ bulkProgress: { label, done: index + 1, total: rows.length } });
    }
    set({ bulkProgress: null, checked: [] });
  },

  loadList: async (options = {}) => {
    const sequence = ++listSequence;
    const { search, page, settings } = get();
    const { query, errors } = listQueryFor(search, page, settings.pageSize);
    // A search with an error is shown in place and never sent.
    if (errors.length > 0) return;
    set({ listLoading: true });
    try {
      const answered = await call('listEmails', options.fresh ? { ...query, fresh: true } : query);
      if (sequence !== listSequence) return;
      // Mail deleted on screen stays gone while its DELETE waits for the undo window.
      const hidden = get().pendingDeletes;
      const waiting = Object.keys(hidden).length;
      // The server still counts them until the DELETE goes: the pages shown do not.
      const total = Math.max(0, answered.meta.total - waiting);
      const list = {
        ...answered,
        data: answered.data.filter((e) => !hidden[e.id]),
        meta: waiting === 0 ? answered.meta : { ...answered.meta, total, last_page: Math.max(1, Math.ceil(total / answered.meta.per_page)) },
      };
      const ids = list.data.map((e) => e.id);
      const selectedId = get().selectedId;
      const known = get().knownAddresses;
      const add = (existing: string[], more: string[]) => [...new Set([...existing, ...more])].slice(-KNOWN_MAX);
      set({
        knownAddresses: {
          senders: add(known.senders, list.data.map((e) => e.sender.email)),
          inboxes: add(known.inboxes, list.data.map((e) => e.inbox.email)),
        },
        list,
        listLoading: false,
        listError: null,
        selectedId: selectedId !== null && ids.includes(selectedId) ? selectedId : (ids[0] ?? null),
        checked: get().checked.filter((c) => ids.includes(c)),
      });
      get().clearOutage();
      get().watchList();
    } catch (error) {
      if (sequence !== listSequence) return;
      const bridgeError = asBridgeError(error);
      // The list on screen, the page and the selection all stay as they were.
      if (OUTAGE_KINDS.has(bridgeError.kind)) {
        set({ listLoading: false, listError: null });
        get().reportOutage(bridgeError, 'list', () => void get().loadList(options));
      } else {
        set({ listLoading: false, listError: bridgeError });
      }
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
        localStorage.setItem(RECENT_KEY, JSON.stringify(recentSearches));
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
    const visible = typeof document === 'undefined' || document.visibilityState !== 'hidden';
    void call('watchList', { query: errors.length > 0 ? null : query, visible }).catch(() => undefined);
  },

  mergePolled: (query, polled) => {
    const { list, search, page, settings } = get();
    if (!list || queryKey(query) !== queryKey(listQueryFor(search, 1, settings.pageSize).query)) return;
    const hidden = get().pendingDeletes;
    const fresh = arrivals(list.data, polled.data).filter((e) => !hidden[e.id]);
    // What the server now says of mail on screen (read, starred) is taken as is.
    const updated = new Map(polled.data.map((e) => [e.id, e]));
    const data = list.data.map((e) => updated.get(e.id) ?? e);
    if (fresh.length === 0) {
      set({ list: { ...list, data } });
      return;
    }
    // On page 1 new mail slides in at the top; elsewhere it is only counted. Selection and open email stay.
    set({
      list: page === 1 ? { ...list, data: [...fresh, ...data], meta: { ...list.meta, total: polled.meta.total } } : { ...list, data },
      newIds: [...fresh.map((e) => e.id), ...get().newIds],
    });
  },

  clearNew: () => set({ newIds: [] }),

  goToPage: (page) => {
    const last = get().list?.meta.last_page ?? 1;
    const target = Math.min(Math.max(1, page), Math.max(1, last));
    if (target === get().page && get().list) return;
    set({ page: target, selectedId: null, newIds: [] });
    void get().loadList();
  },

  select: (id) => set({ selectedId: id }),

  moveSelection: (delta) => {
    const ids = visibleRows(get().list, get().search).map((e) => e.id);
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

  toggleFavorite: async (id = get().selectedId ?? undefined) => {
    const email = get().list?.data.find((e) => e.id === id) ?? (get().email?.id === id ? get().email : null);
    if (!id || !email) return;
    const favorite = !email.favorite;
    get().patchListEmail({ ...email, favorite });
    if (get().email?.id === id) set({ email: { ...get().email!, favorite } });
    try {
      await call('setFavorite', { id, favorite });
    } catch (error) {
      get().patchListEmail({ ...email, favorite: !favorite });
      if (get().email?.id === id) set({ email: { ...get().email!, favorite: !favorite } });
      get().notify(asBridgeError(error));
    }
  },

  deleteEmail: async (id = get().selectedId ?? undefined, options = {}) => {
    const { list, page, settings, openId } = get();
    if (!id || !list) return;
    const index = list.data.findIndex((e) => e.id === id);
    const email = list.data[index] ?? (get().email?.id === id ? get().email : null);
    if (!email) return;
    const ids = list.data.map((e) => e.id);
    const neighbour =
      settings.afterDelete === 'previous' ? (ids[index - 1] ?? ids[index + 1] ?? null) : (ids[index + 1] ?? ids[index - 1] ?? null);
    // Gone from the screen at once; the DELETE itself waits for the undo window, in main.
    const remaining = list.data.filter((e) => e.id !== id);
    set({
      list: { ...list, data: remaining, meta: { ...list.meta, total: Math.max(0, list.meta.total - 1) } },
      pendingDeletes: { ...get().pendingDeletes, [id]: { email, index: Math.max(0, index) } },
      lastDeleted: id,
      selectedId: neighbour,
    });
    if (openId === id) {
      if (settings.afterDelete === 'list' || neighbour === null) get().closeMessage();
      else void get().openMessage(neighbour);
    }
    try {
      await call('deleteEmail', { id, undoMs: UNDO_MS });
    } catch (error) {
      get().restoreDeleted(id, asBridgeError(error));
      return;
    }
    const subject = email.subject || '(no subject)';
    if (!options.quiet) {
      set({ lastBulkDeleted: null });
      get().notify({ kind: 'not-found', message: `Deleted “${subject}”.`, details: {} }, 'info', {
        action: { label: 'Undo (z)', run: () => void get().undoDelete(id) },
        ms: UNDO_MS,
      });
    }
    // The page stays valid: an emptied page goes back one; otherwise it refills once the delete is sent.
    if (remaining.length === 0 && page > 1) get().goToPage(page - 1);
    setTimeout(() => {
      const pending = { ...get().pendingDeletes };
      if (!pending[id]) return;
      delete pending[id];
      set({ pendingDeletes: pending });
      void get().loadList();
    }, UNDO_MS + 500);
  },

  undoDelete: async (id = get().lastDeleted ?? undefined) => {
    const bulk = get().lastBulkDeleted;
    if (id === undefined && bulk) {
      // z after a bulk delete brings back every one of them.
      set({ lastBulkDeleted: null });
      let restored = 0;
      for (const one of bulk) {
        if (!get().pendingDeletes[one]) continue;
        const { undone } = await call('undoDelete', { id: one }).catch(() => ({ undone: false }));
        if (undone) {
          get().restoreDeleted(one);
          restored += 1;
        }
      }
      get().notify({ kind: 'not-found', message: restored > 0 ? `${restored} emails are back.` : 'Too late to undo: the emails were deleted.', details: {} }, 'info');
      return;
    }
    if (!id || !get().pendingDeletes[id]) return;
    try {
      const { undone } = await call('undoDelete', { id });
      if (!undone) {
        get().notify({ kind: 'not-found', message: 'Too late to undo: the email was deleted.', details: {} });
        return;
      }
    } catch (error) {
      get().notify(asBridgeError(error));
      return;
    }
    get().restoreDeleted(id);
    get().notify({ kind: 'not-found', message: 'Delete undone.', details: {} }, 'info');
  },

  restoreDeleted: (id, error) => {
    const entry = get().pendingDeletes[id];
    if (!entry) return;
    const pending = { ...get().pendingDeletes };
    delete pending[id];
    const list = get().list;
    const data = list ? [...list.data.filter((e) => e.id !== id)] : [];
    data.splice(Math.min(entry.index, data.length), 0, entry.email);
    set({
      pendingDeletes: pending,
      lastDeleted: get().lastDeleted === id ? null : get().lastDeleted,
      ...(list ? { list: { ...list, data, meta: { ...list.meta, total: list.meta.total + 1 } } } : {}),
      selectedId: id,
    });
    if (error) get().notify(error);
  },
});
