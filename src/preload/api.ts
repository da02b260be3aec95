import type { BridgeSpec } from '../shared/bridge-spec.ts';
import type { WindowApi } from '../shared/contract.ts';

/** The part of ipcRenderer the bridge needs; tests and the test host pass their own. */
export interface IpcLike {
  invoke(channel: string, arg: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

/**
 * Builds `window.api` from the contract: exactly one function per method and
 * `on`, nothing else (no ipcRenderer, no generic invoke). Self-contained on
 * purpose: the test host injects this very function's source into the page.
 */
export function buildWindowApi(ipc: IpcLike, spec: BridgeSpec): WindowApi {
  const api: Record<string, unknown> = {};
  // The first screen's questions go out now, while the renderer's bundle loads; each answer is handed over once.
  const early = new Map(
    spec.early.map((method) => {
      const answer = ipc.invoke(spec.invokePrefix + method, undefined);
      // A failure reaches the renderer's call; this only keeps an answer nobody asked for from being "unhandled".
      answer.catch(() => undefined);
      return [method, answer];
    }),
  );
  // An event from main before the renderer asks means its state moved on: the renderer's call asks again.
  const watched = spec.events.map((event) => spec.eventPrefix + event);
  const stale = () => {
    early.clear();
    for (const channel of watched) ipc.removeListener(channel, stale);
  };
  for (const channel of watched) ipc.on(channel, stale);
  for (const method of spec.methods) {
    const channel = spec.invokePrefix + method;
    api[method] = (arg: unknown) => {
      const answer = arg === undefined ? early.get(method) : undefined;
      if (answer === undefined) return ipc.invoke(channel, arg);
      early.delete(method);
      if (early.size === 0) stale();
      return answer;
    };
  }
  api.on = (event: string, listener: (payload: unknown) => void) => {
    if (!spec.events.includes(event) || typeof listener !== 'function') {
      throw new Error(`Unknown event: ${String(event)}`);
    }
    const channel = spec.eventPrefix + event;
    // The IPC event object never reaches the renderer: only the payload does.
    const wrapped = (_event: unknown, payload: unknown) => listener(payload);
    ipc.on(channel, wrapped);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipc.removeListener(channel, wrapped);
    };
  };
  return Object.freeze(api) as WindowApi;
}
