/**
 * The only file that touches window.api. Unwraps envelopes into values or
 * BridgeFailure, so features never see the transport.
 */
import type { Args, BridgeError, EventName, Events, Method, Results } from '../../shared/contract.ts';

export class BridgeFailure extends Error {
  readonly error: BridgeError;

  constructor(error: BridgeError) {
    super(error.message);
    this.name = 'BridgeFailure';
    this.error = error;
  }
}

export function asBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeFailure) return error.error;
  return { kind: 'server', message: error instanceof Error ? error.message : String(error), details: {} };
}

export async function call<M extends Method>(method: M, arg: Args[M]): Promise<Results[M]> {
  const envelope = await (window.api[method] as (a: Args[M]) => Promise<unknown>)(arg);
  if (typeof envelope === 'object' && envelope !== null && 'ok' in envelope) {
    const typed = envelope as { ok: boolean; value?: Results[M]; error?: BridgeError };
    if (typed.ok) return typed.value as Results[M];
    if (typed.error) throw new BridgeFailure(typed.error);
  }
  throw new BridgeFailure({ kind: 'bad-response', message: 'Main answered in an unexpected shape.', details: {} });
}

export function subscribe<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
  return window.api.on(event, listener);
}
