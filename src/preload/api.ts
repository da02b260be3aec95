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
  for (const method of spec.methods) {
    const channel = spec.invokePrefix + method;
    api[method] = (arg: unknown) => ipc.invoke(channel, arg);
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
