/**
 * The Electron glue, as functions over the parts of Electron it uses: the
 * app's events, ipcMain, the app:// protocol, the main window. index.ts
 * hands in the real ones; a test hands in fakes and runs this very wiring
 * (test/unit/app-wiring.test.ts). No electron import here.
 */
import type { Handlers } from './handlers.ts';
import { registerIpc, type IpcRegistry } from './ipc.ts';
import { flushBeforeQuit, focusExisting } from './lifecycle.ts';
import { rendererResponse } from './renderer-files.ts';
import { APP_SCHEME, installGuards, type GuardedContents, type GuardedSession } from './security.ts';

export interface AppLike {
  on(event: 'second-instance' | 'will-quit' | 'window-all-closed', listener: () => void): unknown;
  on(event: 'web-contents-created', listener: (event: unknown, contents: GuardedContents & { session: GuardedSession }) => void): unknown;
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

export interface WindowLike {
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
}

/** Before the app is ready: one instance, guards on every web contents, quitting with the last window (but on macOS). */
export function wireEarly(app: AppLike, options: { platform: string; mainWindow: () => WindowLike | null }): void {
  app.on('second-instance', () => focusExisting(options.mainWindow()));
  // Every web contents, the main window's and any other, gets the same guards.
  app.on('web-contents-created', (_event, contents) => installGuards(contents, contents.session));
  app.on('window-all-closed', () => {
    if (options.platform !== 'darwin') app.quit();
  });
}

/** Once ready: the contract on IPC (the app's own frame only), the renderer on app://, the quit path. */
export function wireReady(
  app: AppLike,
  parts: {
    ipcMain: IpcRegistry;
    protocol: { handle(scheme: string, handler: (request: { url: string }) => Promise<Response>): void };
    handlers: Handlers;
    rendererDir: string;
    devServerUrl?: string;
    /** What goes with the app (updates, the demo's service). */
    onWillQuit: () => void;
  },
): void {
  registerIpc(parts.ipcMain, parts.handlers, parts.devServerUrl);
  parts.protocol.handle(APP_SCHEME, (request) => rendererResponse(parts.rendererDir, request.url));
  // Deletes still inside their undo window are sent before the app goes.
  app.on('before-quit', flushBeforeQuit(() => parts.handlers.flush(), () => app.quit()));
  app.on('will-quit', () => {
    parts.handlers.dispose();
    parts.onWillQuit();
  });
}
