import type { BridgeError, Results } from '../../../../shared/contract.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import type { ListQuery } from '../../../../shared/domain/list-query.ts';
import { parseSearch, planSearch, toggleIs } from '../../../../shared/domain/search-query.ts';
import { asBridgeError } from '../../bridge.ts';
import type { Effects } from '../../effects.ts';
import type { Slice } from '../../store.ts';
import { nextSelection } from '../list-cursor.ts';
import { undoableRemoval, type Removed } from '../undoable-removal.ts';
import { UNDO_MS } from '../../../../shared/domain/settings.ts';
import { withKey } from '../commands/hints.ts';

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
  clearNew: () => void;
}

const queryKey = (query: ListQuery) => JSON.stringify({ ...query, page: 1 });

export const createInboxSlice: Slice<InboxSlice> = (effects) => (set, get) => {
  /**
   * Stars the user set. A list page asked for before the write was answered
   * (a poll, a refresh, however late it lands) still says the old star: the
   * entry stands over it; a page asked for after the answer is the server's
   * word, and the entry goes. A write refused goes at once (the server kept
   * the old star, and so does every page).
   */
  const pendingStars = new Map<string, { favorite: boolean; answeredAt: number | null }>();
  /** How long an answered star is held over pages whose asking time is unknown (polls). */
  const STAR_HELD_MS = 60_000;
  const { call, clock, storage } = effects;
  /** A delete-all the server took lately: a list read before that and answered after must not bring its mail back. */
  let allGone: { through: string; ids: Set<string>; at: number; account: string } | null = null;
  /** The account shown: a delete-all reaches the mail of the account it was made in, never another's. */
  const account = () => get().accounts?.activeId ?? 'demo';
  /**
   * Whether a delete-all up to `through` took this email. The API's times are to the second and
   * `through` to the millisecond: an email of that same second was taken only if it was on the page
   * the delete-all took; one that came in that second, after it, stays.
   */
  const takenBy = (email: Email, through: string, ids: Set<string>) => {
    const at = Date.parse(email.created_at);
    const second = Math.floor(Date.parse(through) / 1000) * 1000;
    return at < second || (at < second + 1000 && ids.has(email.id));
  };
  const goneByAll = (email: Email) => allGone !== null && allGone.account === account() && clock.now() - allGone.at <= 60_000 && takenBy(email, allGone.through, allGone.ids);
  /** The delete-all waiting (its window, its DELETE on the way) in the account shown, if any. */
  const pendingAll = () => {
    const all = get().deletedAll;
    return all !== null && (all.account ?? account()) === account() ? all : null;
  };
  const takenByPendingAll = (email: Email) => {
    const all = pendingAll();
    return all !== null && takenBy(email, all.through, new Set(all.list.data.map((e) => e.id)));
  };
  const withPendingStars = (emails: Email[], askedAt: number | null = null) => {
    if (pendingStars.size === 0) return emails;
    for (const [id, entry] of pendingStars) {
      const answered = entry.answeredAt;
      if (answered !== null && ((askedAt !== null && askedAt > answered) || clock.now() - answered > STAR_HELD_MS)) pendingStars.delete(id);
    }
    return emails.map((e) => (pendingStars.has(e.id) ? { ...e, favorite: pendingStars.get(e.id)!.favorite } : e));
  };
  let listSequence = 0;
  /** Newest first, as the server pages them (ties by id). */
  const newestFirst = (a: Email, b: Email) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id);
  const removal = undoableRemoval<Email>(effects, {
    kind: 'email',
    noun: { one: 'email', many: 'emails' },
    items: () => get().list?.data ?? [],
    scope: () => account(),
    show: (data, delta) => {
      const list = get().list;
      if (list) set({ list: { ...list, data, meta: { ...list.meta, total: Math.max(0, list.meta.total + delta) } } });
    },
    // The highlight is the open email: the one deleted while open opens again; otherwise the open one keeps it.
    restored: ({ item, wasOpen }) => {
      const openId = get().openId;
      set({ selectedId: wasOpen || openId === null ? item.id : openId });
      if (wasOpen) void get().openMessage(item.id);
    },
    // The page refills from the server once the DELETEs have gone.
    settled: () => void get().loadList(),
    notify: (what, options) => get().notify(what, options),
    dismiss: (id) => get().dismiss(id),
    order: newestFirst,
    failed: (email, error) => {
      const title = email.subject || '(no subject)';
      return { text: `“${title}” was not deleted: ${error.message}`, again: `Deleted “${title}” again.` };
    },
  });

  /** Takes these emails off the screen with one undo; the highlight (and the reader) move on if theirs went. */
  const removeEmails = async (ids: string[], message: (first: Email) => string) => {
    const { list, page, settings, openId, selectedId } = get();
    if (!list) return;
    const rows = list.data.map((e) => e.id);
    const removed: Removed<Email>[] = [];
    for (const id of ids) {
      const index = rows.indexOf(id);
      const item = list.data[index] ?? (get().email?.id === id ? get().email : null);
      if (item) removed.push({ item, index: Math.max(0, index), wasOpen: openId === id });
    }
    if (removed.length === 0) return;
    const going = new Set(removed.map((r) => r.item.id));
    const anchor = openId !== null && going.has(openId) ? openId : selectedId !== null && going.has(selectedId) ? selectedId : null;
    if (anchor !== null) {
      const at = rows.indexOf(anchor);
      const after = rows.slice(at + 1).find((id) => !going.has(id)) ?? null;
      const before = rows.slice(0, Math.max(0, at)).reverse().find((id) => !going.has(id)) ?? null;
      const neighbour = settings.afterDelete === 'previous' ? (before ?? after) : (after ?? before);
      set({ selectedId: neighbour });
      if (anchor === openId) {
        if (settings.afterDelete === 'list' || neighbour === null) get().closeMessage();
        else void get().openMessage(neighbour);
      }
    }
    await removal.remove(removed, message(removed[0]!.item));
    // The page stays valid: an emptied page goes back one.
    if (get().list?.data.length === 0 && page > 1 && get().page === page) get().goToPage(page - 1);
  };

  return {
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
    checked: [],
    bulkProgress: null,

    toggleChecked: (id) => {
      const checked = get().checked;
      set({ checked: checked.includes(id) ? checked.filter((c) => c !== id) : [...checked, id] });
    },

    checkAll: (on) => set({ checked: on ? visibleRows(get().list, get().search).map((e) => e.id) : [] }),

    bulk: async (kind) => {
      const rows = visibleRows(get().list, get().search).filter((e) => get().checked.includes(e.id));
      if (rows.length === 0 || get().bulkProgress) return;
      if (kind === 'delete') {
        await removeEmails(
          rows.map((e) => e.id),
          () => `Deleted ${rows.length} ${rows.length === 1 ? 'email' : 'emails'}.`,
        );
        set({ checked: [] });
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
          if (blocked && blocked > clock.now()) await new Promise((r) => clock.setTimeout(() => r(undefined), blocked - clock.now()));
          await get().toggleFavorite(email.id);
        }
        set({ bulkProgress: { label, done: index + 1, total: rows.length } });
      }
      set({ bulkProgress: null, checked: [] });
    },

    askBulkDelete: () => {
      const count = get().checked.length;
      if (count > 0 && get().confirmDelete(`Delete ${count} selected ${count === 1 ? 'email' : 'emails'}?`)) void get().bulk('delete');
    },

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
        const through = pendingAll()?.through ?? null;
        const kept = answered.data.filter((e) => !removal.isPending(e.id) && !goneByAll(e) && !takenByPendingAll(e));
        // What the server still counts: every delete waiting, or (a list read before one settled) the rows it still had.
        const waiting = through !== null ? answered.data.length - kept.length : Math.max(removal.pendingCount(), answered.data.length - kept.length);
        // The server still counts them until the DELETE goes: the pages shown do not.
        const total = through !== null ? kept.length : Math.max(0, answered.meta.total - waiting);
        const list = {
          ...answered,
          data: withPendingStars(kept, askedAt),
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
      const fresh = arrivals(list.data, withPendingStars(polled.data)).filter((e) => !removal.isPending(e.id) && !goneByAll(e) && !takenByPendingAll(e));
      // What the server now says of mail on screen (read, starred) is taken as is.
      const updated = new Map(withPendingStars(polled.data).map((e) => [e.id, e]));
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

    toggleFavorite: async (id = get().selectedId ?? undefined) => {
      const email = get().list?.data.find((e) => e.id === id) ?? (get().email?.id === id ? get().email : null);
      if (!id || !email) return;
      const favorite = !email.favorite;
      const pending: { favorite: boolean; answeredAt: number | null } = { favorite, answeredAt: null };
      // The star before this one, if the server took it and pages asked earlier may still say otherwise.
      const before = pendingStars.get(id);
      pendingStars.set(id, pending);
      get().patchListEmail({ ...email, favorite });
      if (get().email?.id === id) set({ email: { ...get().email!, favorite } });
      try {
        await call('setFavorite', { id, favorite });
        // Held until a page asked for after this answer lands.
        pending.answeredAt = clock.now();
      } catch (error) {
        get().patchListEmail({ ...email, favorite: !favorite });
        if (get().email?.id === id) set({ email: { ...get().email!, favorite: !favorite } });
        get().notify(asBridgeError(error));
        // A later toggle of the same email has its own entry: only this one's own goes, and the one
        // before it (a star the server did take) holds again over pages asked before that.
        if (pendingStars.get(id) === pending) {
          if (before) pendingStars.set(id, before);
          else pendingStars.delete(id);
        }
      }
    },

    deleteEmail: async (id = get().selectedId ?? undefined) => {
      if (id) await removeEmails([id], (email) => `Deleted “${email.subject || '(no subject)'}”.`);
    },

    askDeleteEmail: () => {
      const id = get().openId ?? get().selectedId;
      const email = get().list?.data.find((e) => e.id === id) ?? (get().email?.id === id ? get().email : null);
      if (!id || !email) return;
      const from = email.sender.display_name || email.sender.email;
      if (get().confirmDelete(`Delete “${email.subject || '(no subject)'}”${from ? ` from ${from}` : ''}?`)) void get().deleteEmail(id);
    },

    undoDelete: async (id) => {
      const all = pendingAll();
      // The newest delete first: a delete-all in its window is that, unless z names an email.
      if (all && all.undoable !== false && id === undefined) {
        set({ deletedAll: null });
        const { undone } = await call('undoDelete', { id: all.through, kind: 'all' }).catch(() => ({ undone: false }));
        if (undone) {
          set({ list: all.list });
          get().notify('Every email is back.');
        } else get().notify('Too late to undo: the emails were deleted.');
        return;
      }
      await removal.undo(id);
    },

    deletedAll: null,
    deleteAll: async () => {
      const list = get().list;
      if (!list || list.data.length === 0) return;
      let through: string;
      try {
        ({ through } = await call('deleteAllEmails', { undoMs: UNDO_MS }));
      } catch (error) {
        get().notify(asBridgeError(error));
        return;
      }
      set({ deletedAll: { through, list, account: account() }, list: { ...list, data: [], meta: { ...list.meta, total: 0, from: null, to: null, last_page: 1 } }, selectedId: null, checked: [] });
      get().closeMessage();
      get().notify('Deleted every email.', { action: { label: withKey('Undo', 'inbox.undo'), run: () => void get().undoDelete() }, ms: UNDO_MS });
      // The window closing ends z only: what was deleted stays off until main says how the DELETE went
      // (deleteSettled or deleteFailed), so a DELETE that hangs never brings every email back unannounced.
      clock.setTimeout(() => {
        const all = get().deletedAll;
        if (all?.through === through) set({ deletedAll: { ...all, undoable: false } });
      }, UNDO_MS + 500);
    },

    restoreDeleted: (id, error) => {
      // Back where it was, with the notice; then the page as the server has it (another delete, a
      // delete-all, may have taken it meanwhile: then it goes again, rather than stay as a row of nothing).
      if (removal.restore(id, error) && error) void get().loadList({ fresh: true });
    },

    deleteSettled: (id, kind) => {
      if (kind === 'email') return removal.settle(id);
      if (kind !== 'all' || get().deletedAll?.through !== id) return;
      // The server took the delete-all: what arrived since shows, from the server.
      allGone = { through: id, ids: new Set(get().deletedAll!.list.data.map((e) => e.id)), at: clock.now(), account: get().deletedAll!.account ?? account() };
      set({ deletedAll: null });
      void get().loadList({ fresh: true });
    },

    deleteAllFailed: (through, error) => {
      const all = get().deletedAll;
      const here = all === null || (all.account ?? account()) === account();
      if (all?.through === through) {
        // Every row back on screen at once, as the delete-all found them (the server kept them), beside
        // any that came back or arrived meanwhile: a refresh that fails now (the service is down) must
        // not leave an empty inbox.
        const current = get().list;
        if (here) {
          const shown = new Set((current?.data ?? []).map((e) => e.id));
          const data = [...(current?.data ?? []), ...all.list.data.filter((e) => !shown.has(e.id) && !removal.isPending(e.id))].sort(newestFirst);
          const base = current ?? all.list;
          set({ deletedAll: null, list: { ...base, data, meta: { ...base.meta, total: Math.max(all.list.meta.total, data.length) } } });
        } else set({ deletedAll: null });
      }
      void get().loadList({ fresh: true });
      const text = `Deleting every email failed: ${error.message.replace(/\.$/, '')}. They are all still there.`;
      // Retry deletes what is shown: only where that is the account it failed in.
      get().notify(text, here ? { tone: 'error', action: { label: 'Retry', run: () => void get().deleteAll() } } : { tone: 'error' });
    },
  };
};
