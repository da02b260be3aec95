import type { WebContents } from 'electron';
import { eventChannel, METHODS, invokeChannel, type EventName, type Events } from '../shared/contract.ts';
import { dispatch, type Handlers } from './handlers.ts';
import { isTrustedSender } from './security.ts';

/** The part of ipcMain this needs: Electron's, or the test host's stand-in for it. */
export interface IpcRegistry {
  handle(channel: string, listener: (event: { senderFrame: { url: string; parent: unknown } | null }, arg: unknown) => unknown): void;
}

/**
 * One ipcMain handler per contract method; calls from any other frame are
 * refused. The test host registers through this very function, so the check
 * it exercises is this one.
 */
export function registerIpc(ipcMain: IpcRegistry, handlers: Handlers, devServerUrl?: string): void {
  for (const method of METHODS) {
    ipcMain.handle(invokeChannel(method), (event, arg: unknown) => {
      if (!isTrustedSender(event.senderFrame, devServerUrl)) {
        return { ok: false, error: { kind: 'forbidden', message: 'Calls are only taken from the app itself.', details: {} } };
      }
      return dispatch(handlers, method, arg);
    });
  }
}

export function emitter(getContents: () => WebContents | null) {
  return <E extends EventName>(event: E, payload: Events[E]) => {
    const contents = getContents();
    if (contents && !contents.isDestroyed()) contents.send(eventChannel(event), payload);
  };
}
