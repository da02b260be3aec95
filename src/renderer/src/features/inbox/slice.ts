import type { StateCreator } from 'zustand';
import type { BridgeError } from '../../../../shared/contract.ts';
import type { Results } from '../../../../shared/contract.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import type { ListQuery } from '../../../../shared/domain/list-query.ts';
import { asBridgeError, call } from '../../bridge.ts';
import type { AppState } from '../../store.ts';

export interface InboxFilters {
  search: string;
  inbox: string;
  sender: string;
  unread: boolean;
  favorite: boolean;
  /** Local calendar days, `YYYY-MM-DD`, both included; empty for no bound. */
  fromDay: string;
  toDay: string;
}

export const EMPTY_FILTERS: InboxFilters = {
  search: '',
  inbox: '',
  sender: '',
  unread: false,
  favorite: false,
  fromDay: '',
  toDay: '',
};

/** The service's bounds are exclusive instants: a day range becomes the instants around it. Pure. */
export function dayBounds(fromDay: string, toDay: string): { since?: string; until?: string } {
  const instant = (day: string, offsetDays: number) => {
    const date = new Date(`${day}T00:00:00`);
    if (Number.isNaN(date.getTime())) return undefined;
    date.setDate(date.getDate() + offsetDays);
    return new Date(date.getTime() + (offsetDays === 0 ? -1 : 0)).toISOString();
  };
  return { since: fromDay ? instant(fromDay, 0) : undefined, until: toDay ? instant(toDay, 1) : undefined };
}

export interface InboxSlice {
  filters: InboxFilters;
  page: number;
  list: Results['listEmails'] | null;
  listLoading: boolean;
  listError: BridgeError | null;
  selectedId: string | null;
  /** `fresh`: the user asked to refresh, so main's page cache is skipped. */
  loadList: (options?: { fresh?: boolean }) => Promise<void>;
  setFilters: (patch: Partial<InboxFilters>) => void;
  goToPage: (page: number) => void;
  select: (id: string | null) => void;
  moveSelection: (delta: number) => void;
  toggleFavorite: (id?: string) => Promise<void>;
  deleteEmail: (id?: string) => Promise<void>;
  patchListEmail: (email: Email) => void;
}

/** The query the list sends for the current filters and page. Pure. */
export function listQueryFor(filters: InboxFilters, page: number, pageSize: number): ListQuery {
  return {
    page,
    limit: pageSize,
    search: filters.search || undefined,
    inbox: filters.inbox || undefined,
    sender: filters.sender || undefined,
    unread: filters.unread || undefined,
    favorite: filters.favorite || undefined,
    ...dayBounds(filters.fromDay, filters.toDay),
  };
}

/** Where the selection goes when `delta` rows away; stays inside the page. Pure. */
export function nextSelection(ids: string[], current: string | null, delta: number): string | null {
  if (ids.length === 0) return null;
  const index = current === null ? -1 : ids.indexOf(current);
  if (index === -1) return delta >= 0 ? ids[0]! : ids[ids.length - 1]!;
  return ids[Math.min(ids.length - 1, Math.max(0, index + delta))]!;
}

let listSequence = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

export const createInboxSlice: StateCreator<AppState, [], [], InboxSlice> = (set, get) => ({
  filters: EMPTY_FILTERS,
  page: 1,
  list: null,
  listLoading: false,
  listError: null,
  selectedId: null,

  loadList: async (options = {}) => {
    const sequence = ++listSequence;
    clearTimeout(retryTimer);
    const { filters, page, settings } = get();
    set({ listLoading: true });
    try {
      const query = listQueryFor(filters, page, settings.pageSize);
      const list = await call('listEmails', options.fresh ? { ...query, fresh: true } : query);
      if (sequence !== listSequence) return;
      const ids = list.data.map((e) => e.id);
      const selectedId = get().selectedId;
      set({
        list,
        listLoading: false,
        listError: null,
        selectedId: selectedId !== null && ids.includes(selectedId) ? selectedId : (ids[0] ?? null),
      });
    } catch (error) {
      if (sequence !== listSequence) return;
      const bridgeError = asBridgeError(error);
      // The list on screen, the page and the selection all stay as they were.
      set({ listLoading: false, listError: bridgeError });
      const wait = bridgeError.details.retryAfterSeconds;
      if (bridgeError.kind === 'rate-limited' && wait !== undefined && wait <= 120) {
        retryTimer = setTimeout(() => void get().loadList(options), wait * 1000);
      }
    }
  },

  setFilters: (patch) => {
    set({ filters: { ...get().filters, ...patch }, page: 1 });
    void get().loadList();
  },

  goToPage: (page) => {
    const last = get().list?.meta.last_page ?? 1;
    const target = Math.min(Math.max(1, page), Math.max(1, last));
    if (target === get().page && get().list) return;
    set({ page: target, selectedId: null });
    void get().loadList();
  },

  select: (id) => set({ selectedId: id }),

  moveSelection: (delta) => {
    const ids = get().list?.data.map((e) => e.id) ?? [];
    set({ selectedId: nextSelection(ids, get().selectedId, delta) });
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

  deleteEmail: async (id = get().selectedId ?? undefined) => {
    if (!id) return;
    const ids = get().list?.data.map((e) => e.id) ?? [];
    try {
      await call('deleteEmail', { id });
    } catch (error) {
      get().notify(asBridgeError(error));
      return;
    }
    // Select the neighbour so triage continues where it was.
    const index = ids.indexOf(id);
    const neighbour = ids[index + 1] ?? ids[index - 1] ?? null;
    if (get().openId === id) get().closeMessage();
    set({ selectedId: neighbour });
    get().notify({ kind: 'not-found', message: 'Email deleted.', details: {} }, 'info');
    await get().loadList();
  },
});
