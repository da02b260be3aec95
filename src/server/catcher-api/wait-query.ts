/** What a wait asks for, read from its query: the cursor and the time it may take, or a 400 that says which is wrong. */
import { MAX_WAIT_SECONDS } from './waits.ts';

export const DEFAULT_WAIT_SECONDS = 30;

export type WaitQuery = { ok: true; after: number | null; timeoutMs: number } | { ok: false; message: string };

/**
 * `after`: a cursor from a list answer (X-Inbox-Desk-Cursor, or `cursor` in a
 * body); without one, mail that arrives after the request started.
 * `timeout`: seconds, 0 to MAX_WAIT_SECONDS.
 */
export function readWaitQuery(query: Record<string, unknown>, current: number): WaitQuery {
  const after = query.after;
  const timeout = query.timeout;
  let cursor: number | null = null;
  if (after !== undefined && after !== '') {
    if (typeof after !== 'string' || !/^\d{1,15}$/.test(after)) return { ok: false, message: `after=${String(after)} is not a cursor: use the cursor a list or a wait answered (a whole number).` };
    cursor = Number(after);
    if (cursor > current) return { ok: false, message: `after=${after} is ahead of this catcher (its cursor is ${current}): take the cursor from one of its own answers.` };
  }
  let seconds = DEFAULT_WAIT_SECONDS;
  if (timeout !== undefined && timeout !== '') {
    if (typeof timeout !== 'string' || !/^\d+(\.\d+)?$/.test(timeout)) return { ok: false, message: `timeout=${String(timeout)} is not a number of seconds.` };
    seconds = Number(timeout);
    if (seconds > MAX_WAIT_SECONDS) return { ok: false, message: `timeout=${timeout} is above the cap: a wait may last at most ${MAX_WAIT_SECONDS} s.` };
  }
  return { ok: true, after: cursor, timeoutMs: Math.round(seconds * 1000) };
}
