import type { RateLimitState } from '../contract.ts';

/** Prefetching stops while fewer requests than this remain in the rate window. */
export const PREFETCH_RESERVE = 10;

/** True while a prefetch would not eat into what the user's own actions need. */
export function canPrefetch(state: RateLimitState, now = Date.now()): boolean {
  if (state.blockedUntil !== null && state.blockedUntil > now) return false;
  return state.remaining === null || state.remaining > PREFETCH_RESERVE;
}

/** Polling for new mail stops while fewer requests than this remain: the user's own actions come first. */
export const POLL_FLOOR = 20;

/** True while a background poll may spend a request: never during a 429 wait, never below the floor. */
export function canPoll(state: RateLimitState, now = Date.now()): boolean {
  if (state.blockedUntil !== null && state.blockedUntil > now) return false;
  return state.remaining === null || state.remaining >= POLL_FLOOR;
}
