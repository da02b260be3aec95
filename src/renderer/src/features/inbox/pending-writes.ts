/**
 * What is on screen but not yet on the server, for the inbox: the deletes
 * waiting for their undo window or their DELETE (undoable-removal.ts), a
 * delete-all and what it reaches, and the stars the user set. Every list, poll
 * and refresh reads it (`hides`, `withStars`); an entry leaves it only when
 * main says the write settled, taken or refused (writes.ts acts on that).
 */
import type { Email } from '../../../../shared/domain/email.ts';
import type { Effects } from '../../effects.ts';
import type { AppState } from '../../store.ts';
import { undoableRemoval, type UndoableRemoval } from '../undoable-removal.ts';
import type { InboxSlice } from './slice.ts';

/** A star the user set: what it says, and when the server took it (null: not yet). */
export interface StarEntry {
  favorite: boolean;
  answeredAt: number | null;
}

export interface PendingWrites {
  /** The per-email deletes, with Undo. */
  removal: UndoableRemoval<Email>;
  /**
   * Stars the user set. A list page asked for before the write was answered
   * (a poll, a refresh, however late it lands) still says the old star: the
   * entry stands over it; a page asked for after the answer is the server's
   * word, and the entry goes. A write refused goes at once (the server kept
   * the old star, and so does every page).
   */
  stars: Map<string, StarEntry>;
  /** The stars set, over a page asked for at `askedAt` (null: unknown, as a poll's). */
  withStars: (emails: Email[], askedAt?: number | null) => Email[];
  /** A row a page must leave off the screen now: its delete waits (or was just taken), or a delete-all reaches it. */
  hides: (email: Email) => boolean;
  /** The delete-all waiting (its window, its DELETE on the way) in the account shown, if any. */
  pendingAll: () => InboxSlice['deletedAll'];
  /** The server took a delete-all: a list read before that and answered after must not bring its mail back. */
  allTaken: (through: string, ids: Set<string>, account: string) => void;
  /** The account shown: a delete (or delete-all) belongs to the account it was made in. */
  account: () => string;
}

/** How long an answered star is held over pages whose asking time is unknown (polls). */
const STAR_HELD_MS = 60_000;

/** Newest first, as the server pages them (ties by id). */
export const newestFirst = (a: Email, b: Email) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id);

/**
 * Whether a delete-all up to `through` took this email. The API's times are to the second and
 * `through` to the millisecond: an email of that same second was taken only if it was on the page
 * the delete-all took; one that came in that second, after it, stays.
 */
function takenBy(email: Email, through: string, ids: Set<string>): boolean {
  const at = Date.parse(email.created_at);
  const second = Math.floor(Date.parse(through) / 1000) * 1000;
  return at < second || (at < second + 1000 && ids.has(email.id));
}

export function pendingWrites(effects: Effects, set: (partial: Partial<AppState>) => void, get: () => AppState): PendingWrites {
  const { clock } = effects;
  const stars = new Map<string, StarEntry>();
  let allGone: { through: string; ids: Set<string>; at: number; account: string } | null = null;
  const account = () => get().accounts?.activeId ?? 'demo';
  const goneByAll = (email: Email) => allGone !== null && allGone.account === account() && clock.now() - allGone.at <= 60_000 && takenBy(email, allGone.through, allGone.ids);
  const pendingAll = () => {
    const all = get().deletedAll;
    return all !== null && (all.account ?? account()) === account() ? all : null;
  };
  const takenByPendingAll = (email: Email) => {
    const all = pendingAll();
    return all !== null && takenBy(email, all.through, new Set(all.list.data.map((e) => e.id)));
  };
  const removal = undoableRemoval<Email>(effects, {
    kind: 'email',
    noun: { one: 'email', many: 'emails' },
    items: () => get().list?.data ?? [],
    scope: account,
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
  return {
    removal,
    stars,
    withStars: (emails, askedAt = null) => {
      if (stars.size === 0) return emails;
      for (const [id, entry] of stars) {
        const answered = entry.answeredAt;
        if (answered !== null && ((askedAt !== null && askedAt > answered) || clock.now() - answered > STAR_HELD_MS)) stars.delete(id);
      }
      return emails.map((e) => (stars.has(e.id) ? { ...e, favorite: stars.get(e.id)!.favorite } : e));
    },
    hides: (email) => removal.isPending(email.id) || goneByAll(email) || takenByPendingAll(email),
    pendingAll,
    allTaken: (through, ids, taken) => {
      allGone = { through, ids, at: clock.now(), account: taken };
    },
    account,
  };
}
