/**
 * The inbox's writes: stars, deletes with Undo, delete-all, and the bulk of
 * them on the checked rows; and what main says when each settled (taken or
 * refused). What they leave pending is the room's (pending-writes.ts).
 */
import type { Email } from '../../../../shared/domain/email.ts';
import { UNDO_MS } from '../../../../shared/domain/settings.ts';
import { asBridgeError } from '../../bridge.ts';
import type { Effects } from '../../effects.ts';
import type { AppState } from '../../store.ts';
import { withKey } from '../commands/hints.ts';
import type { Removed } from '../undoable-removal.ts';
import { newestFirst, type PendingWrites, type StarEntry } from './pending-writes.ts';
import { visibleRows } from './list-view.ts';
import type { InboxSlice } from './slice.ts';

export type InboxWrites = Pick<
  InboxSlice,
  | 'checked'
  | 'toggleChecked'
  | 'checkAll'
  | 'bulk'
  | 'askBulkDelete'
  | 'bulkProgress'
  | 'toggleFavorite'
  | 'deleteEmail'
  | 'askDeleteEmail'
  | 'undoDelete'
  | 'deletedAll'
  | 'deleteAll'
  | 'restoreDeleted'
  | 'deleteSettled'
  | 'deleteAllFailed'
>;

export function inboxWrites(effects: Effects, set: (partial: Partial<AppState>) => void, get: () => AppState, room: PendingWrites): InboxWrites {
  const { call, clock } = effects;
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
    await room.removal.remove(removed, message(removed[0]!.item));
    // The page stays valid: an emptied page goes back one.
    if (get().list?.data.length === 0 && page > 1 && get().page === page) get().goToPage(page - 1);
  };

  return {
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

    toggleFavorite: async (id = get().selectedId ?? undefined) => {
      const email = get().list?.data.find((e) => e.id === id) ?? (get().email?.id === id ? get().email : null);
      if (!id || !email) return;
      const favorite = !email.favorite;
      const pending: StarEntry = { favorite, answeredAt: null };
      // The star before this one, if the server took it and pages asked earlier may still say otherwise.
      const before = room.stars.get(id);
      room.stars.set(id, pending);
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
        if (room.stars.get(id) === pending) {
          if (before) room.stars.set(id, before);
          else room.stars.delete(id);
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
      const all = room.pendingAll();
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
      await room.removal.undo(id);
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
      set({ deletedAll: { through, list, account: room.account() }, list: { ...list, data: [], meta: { ...list.meta, total: 0, from: null, to: null, last_page: 1 } }, selectedId: null, checked: [] });
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
      if (room.removal.restore(id, error) && error) void get().loadList({ fresh: true });
    },

    deleteSettled: (id, kind) => {
      if (kind === 'email') return room.removal.settle(id);
      if (kind !== 'all' || get().deletedAll?.through !== id) return;
      // The server took the delete-all: what arrived since shows, from the server.
      room.allTaken(id, new Set(get().deletedAll!.list.data.map((e) => e.id)), get().deletedAll!.account ?? room.account());
      set({ deletedAll: null });
      void get().loadList({ fresh: true });
    },

    deleteAllFailed: (through, error) => {
      const all = get().deletedAll;
      const here = all === null || (all.account ?? room.account()) === room.account();
      if (all?.through === through) {
        // Every row back on screen at once, as the delete-all found them (the server kept them), beside
        // any that came back or arrived meanwhile: a refresh that fails now (the service is down) must
        // not leave an empty inbox.
        const current = get().list;
        if (here) {
          const shown = new Set((current?.data ?? []).map((e) => e.id));
          const data = [...(current?.data ?? []), ...all.list.data.filter((e) => !shown.has(e.id) && !room.removal.isPending(e.id))].sort(newestFirst);
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
}
