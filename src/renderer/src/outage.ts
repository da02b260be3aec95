/** Connection failures: told once, retried by themselves (store.ts keeps the state). */
import type { BridgeError } from '../../shared/contract.ts';

/** Failures of the connection, not of one request: shown once, retried by themselves. */
export const OUTAGE_KINDS = new Set(['network', 'timeout', 'server', 'rate-limited']);

export interface Outage {
  error: BridgeError;
  /** Epoch ms of the next automatic try. */
  retryAt: number;
  attempt: number;
}

/** The wait before automatic try `attempt` (1, 2, …): 2 s doubling to a minute, or what the server asked. Pure. */
export function outageDelayMs(attempt: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000;
  return Math.min(60_000, 2000 * 2 ** Math.max(0, attempt - 1));
}
