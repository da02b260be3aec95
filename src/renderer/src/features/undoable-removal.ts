/**
 * Deleting from a list with Undo, the one way every list does it (the inbox and
 * the rules): the items leave the screen at once, main holds each DELETE for
 * UNDO_MS, and z takes back the newest delete still in its window, then the one
 * before it (a stack). Each comes back at the row it had. An item stays off the
 * screen until main says its DELETE settled: taken (deleteSettled), or refused
 * (deleteFailed: it comes back, and one notice says the delete failed, with
 * Retry). A DELETE that hangs past the undo window keeps it off meanwhile.
 */
import type { BridgeError } from '../../../shared/contract.ts';
import { UNDO_MS } from '../../../shared/domain/settings.ts';
import { asBridgeError } from '../bridge.ts';
import type { Effects } from '../effects.ts';
import type { Notify } from '../notices.ts';
import { withKey } from './commands/hints.ts';

export interface Removed<T> {
  item: T;
  /** Its row before this delete began. */
  index: number;
  /** It was open in the reader. */
  wasOpen: boolean;
  /** The account it was deleted in (set by remove). */
  scope?: string;
}

export interface RemovalList<T extends { id: string }> {
  kind: 'email' | 'automation';
  /** How one and several are called in the notices. */
  noun: { one: string; many: string };
  /** The list on screen. */
  items: () => T[];
  /** The account shown: a delete of another account's item that fails is said, never put in this list. */
  scope?: () => string;
  /** Shows `items`; `delta` is how many the server's count changes by on screen. */
  show: (items: T[], delta: number) => void;
  /** One came back: where the highlight goes. */
  restored: (removed: Removed<T>) => void;
  /** The server has them deleted (main said so). */
  settled?: (ids: string[]) => void;
  /**
   * The list's own order (the inbox: newest first): an item that comes back goes where it belongs
   * among the rows now, which may not be the row it had (others left meanwhile). Absent: its old row.
   */
  order?: (a: T, b: T) => number;
  /** The notice of a delete that failed (the item is back): what to say, and the notice of trying again (null: it cannot help). */
  failed: (item: T, error: BridgeError) => { text: string; again: string | null };
  notify: Notify;
  dismiss: (id: number) => void;
}

export interface UndoableRemoval<T> {
  /**
   * Off the screen for a list to hold: its delete waits (the undo window, the DELETE on its way), or
   * the server took it a moment ago (a list read before that, answered after, still has it).
   */
  isPending: (id: string) => boolean;
  pendingCount: () => number;
  /** How many deletes z can still take back. */
  depth: () => number;
  /** Takes these off the screen now, under one notice and one z; resolves once main has them all. */
  remove: (removed: Removed<T>[], message: string) => Promise<void>;
  /** Undoes the newest delete still in its window (or the one holding `id`). */
  undo: (id?: string) => Promise<void>;
  /** Puts one back (its DELETE failed): false when it was not waiting. */
  restore: (id: string, error?: BridgeError) => boolean;
  /** Main sent its DELETE and the server took it: the screen stops holding it. */
  settle: (id: string) => void;
}

interface Entry {
  ids: string[];
  noticeId: number;
  /** Main's answers to the DELETEs: an undo waits for them, so a quick z reaches this delete. */
  sent: Promise<unknown>;
}

export function undoableRemoval<T extends { id: string }>(effects: Effects, list: RemovalList<T>): UndoableRemoval<T> {
  const pending = new Map<string, Removed<T>>();
  let stack: Entry[] = [];
  // Settled ones are told together: a bulk delete's 25 answers make one refresh.
  let settledNow: string[] = [];
  /** Taken by the server lately: a list read before that and answered after must not bring it back. */
  const gone = new Map<string, number>();
  const GONE_MS = 60_000;
  const isGone = (id: string) => {
    const at = gone.get(id);
    if (at === undefined) return false;
    if (effects.clock.now() - at <= GONE_MS) return true;
    gone.delete(id);
    return false;
  };
  const settle = (id: string) => {
    if (!pending.delete(id)) return;
    gone.set(id, effects.clock.now());
    if (settledNow.length === 0) {
      effects.clock.setTimeout(() => {
        const ids = settledNow;
        settledNow = [];
        list.settled?.(ids);
      }, 0);
    }
    settledNow.push(id);
  };

  const restore = (id: string, error?: BridgeError): boolean => {
    const removed = pending.get(id);
    if (!removed) return false;
    pending.delete(id);
    if (list.scope && removed.scope !== undefined && removed.scope !== list.scope()) {
      // Deleted in the account left since: it is still there, on that account's server; said, with no Retry from here.
      if (error) list.notify(list.failed(removed.item, error).text, { tone: 'error' });
      return true;
    }
    const items = list.items().filter((item) => item.id !== id);
    const order = list.order;
    const at = order ? items.findIndex((item) => order(removed.item, item) < 0) : removed.index;
    items.splice(at === -1 ? items.length : Math.min(at, items.length), 0, removed.item);
    list.show(items, 1);
    list.restored(removed);
    if (error) {
      // A delete with nothing left to take back leaves the stack, and its notice goes.
      for (const spent of stack.filter((entry) => !entry.ids.some((one) => pending.has(one)))) list.dismiss(spent.noticeId);
      stack = stack.filter((entry) => entry.ids.some((one) => pending.has(one)));
      // Said as what it is, the delete that failed, with the way to try it again.
      const { text, again } = list.failed(removed.item, error);
      const retry = () => void remove([{ ...removed, index: Math.max(0, list.items().findIndex((item) => item.id === id)) }], again!);
      list.notify(text, again === null ? { tone: 'error' } : { tone: 'error', action: { label: 'Retry', run: retry } });
    }
    return true;
  };

  const undo = async (id?: string): Promise<void> => {
    const entry = id === undefined ? stack.at(-1) : stack.find((e) => e.ids.includes(id));
    if (!entry) return;
    // Spent at once: a second z reaches the delete before this one, and the notice goes.
    stack = stack.filter((e) => e !== entry);
    list.dismiss(entry.noticeId);
    await entry.sent.catch(() => undefined);
    // Back in the order they were: each at the row it had, the highest rows last.
    const waiting = entry.ids.filter((one) => pending.has(one)).sort((a, b) => pending.get(a)!.index - pending.get(b)!.index);
    let back = 0;
    for (const one of waiting) {
      const { undone } = await effects.call('undoDelete', { id: one, kind: list.kind }).catch(() => ({ undone: false }));
      if (undone && restore(one)) back += 1;
    }
    const many = entry.ids.length > 1;
    list.notify(
      back === 0
        ? `Too late to undo: the ${many ? `${list.noun.many} were` : `${list.noun.one} was`} deleted.`
        : many
          ? `${back} ${back === 1 ? `${list.noun.one} is` : `${list.noun.many} are`} back.`
          : 'Delete undone.',
    );
  };

  const remove = async (removed: Removed<T>[], message: string): Promise<void> => {
    if (removed.length === 0) return;
    const ids = removed.map((r) => r.item.id);
    const scope = list.scope?.();
    for (const r of removed) pending.set(r.item.id, scope === undefined ? r : { ...r, scope });
    const going = new Set(ids);
    list.show(list.items().filter((item) => !going.has(item.id)), -removed.length);
    const entry: Entry = { ids, noticeId: 0, sent: Promise.resolve() };
    // On the stack before main answers, so a z pressed meanwhile reaches this delete.
    stack = [...stack, entry];
    entry.noticeId = list.notify(message, { action: { label: withKey('Undo', list.kind === 'email' ? 'inbox.undo' : 'rules.undo'), run: () => void undo(ids[0]) }, ms: UNDO_MS });
    entry.sent = (async () => {
      for (const id of ids) {
        try {
          await effects.call(list.kind === 'email' ? 'deleteEmail' : 'deleteAutomation', { id, undoMs: UNDO_MS });
        } catch (error) {
          restore(id, asBridgeError(error));
        }
      }
    })();
    await entry.sent;
    effects.clock.setTimeout(() => {
      // The window closed: z can no longer reach these. They stay off the screen until main says
      // how their DELETEs went (settle, restore), however long the server takes.
      stack = stack.filter((e) => e !== entry);
    }, UNDO_MS + 500);
  };

  return {
    isPending: (id) => pending.has(id) || isGone(id),
    pendingCount: () => pending.size,
    depth: () => stack.length,
    remove,
    undo,
    restore,
    settle,
  };
}
