import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { eventChannel, METHODS, invokeChannel, type EventName, type Events } from '../shared/contract.ts';
import { dispatch, type Handlers } from './handlers.ts';
import { isTrustedSender } from './security.ts';

/** One ipcMain handler per contract method; calls from any other frame are refused. */
export function registerIpc(ipcMain: IpcMain, handlers: Handlers, devServerUrl?: string): void {
  for (const method of METHODS) {
    ipcMain.handle(invokeChannel(method), (event: IpcMainInvokeEvent, arg: unknown) => {
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
