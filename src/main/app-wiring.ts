/**
 * The Electron glue, as functions over the parts of Electron it uses: the
 * app's events, ipcMain, the app:// protocol, the main window, the native
 * dialogs, the shell, the clipboard and notifications. index.ts hands in the
 * real ones; a test hands in fakes and runs this very wiring
 * (test/unit/app-wiring.test.ts). No electron import here.
 */
import { join } from 'node:path';
import type { DesktopPort, Handlers } from './handlers.ts';
import { registerIpc, type IpcRegistry } from './ipc.ts';
import { flushBeforeQuit, focusExisting, mayClose } from './lifecycle.ts';
import { rendererResponse } from './renderer-files.ts';
import { APP_SCHEME, installGuards, normaliseExternalUrl, type GuardedContents, type GuardedSession } from './security.ts';

export interface AppLike {
  on(event: 'second-instance' | 'will-quit' | 'window-all-closed' | 'activate', listener: () => void): unknown;
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
    /** The first-screen snapshot: written before the quit completes, as waiting deletes are sent. */
    snapshots?: { readonly pending: boolean; flush(): Promise<void> };
    /** process.on for termination signals. */
    onSignal?: (signal: 'SIGTERM' | 'SIGINT' | 'SIGHUP', listener: () => void) => void;
  },
): void {
  registerIpc(parts.ipcMain, parts.handlers, parts.devServerUrl);
  // The app's files, and the images main made for it to show (compare's renderings).
  parts.protocol.handle(APP_SCHEME, async (request) => parts.handlers.shownImages.response(request.url) ?? rendererResponse(parts.rendererDir, request.url));
  // Deletes still inside their undo window are sent, and the first screen's snapshot written, before the app goes.
  const snapshots = parts.snapshots;
  app.on(
    'before-quit',
    flushBeforeQuit(
      () => parts.handlers.waitingDeletes() + (snapshots?.pending ? 1 : 0),
      () => Promise.all([parts.handlers.flush(), snapshots?.flush().catch(() => undefined)]).then(() => undefined),
      () => app.quit(),
    ),
  );
  // Ended from outside (a terminal's Ctrl+C, the session's SIGTERM): the same quit, deletes sent first.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) parts.onSignal?.(signal, () => app.quit());
  // Deletes a previous run took but could not send.
  void parts.handlers.resumeDeletes().catch(() => undefined);
  app.on('will-quit', () => {
    parts.handlers.dispose();
    parts.onWillQuit();
  });
}

/** A native message box's options, as Electron's dialog takes them. */
export interface MessageBox {
  type: 'warning' | 'question';
  title?: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: boolean;
}

/** The desktop parts main's handlers use, each shown over the main window. */
export interface DesktopLike<W> {
  mainWindow: () => W | null;
  dialog: {
    showMessageBox(window: W, options: MessageBox): Promise<{ response: number }>;
    showMessageBoxSync(window: W, options: MessageBox): number;
    showSaveDialog(window: W, options: { defaultPath: string }): Promise<{ canceled: boolean; filePath?: string }>;
  };
  shell: { openExternal(url: string): Promise<void> };
  clipboard: { writeText(text: string): void };
  /**
   * Shows a desktop notification; `onClick` brings the app back, `action` is its one button
   * (Copy). Absent where the system has none.
   */
  notification?: (note: { title: string; body: string; onClick: () => void; action?: { label: string; run: () => void } }) => void;
  downloadsDir: string;
  writeFile: (path: string, bytes: Buffer) => Promise<void>;
  /** A hidden window, scripts off, showing `document`: printed with the system's dialog, or rendered as PDF. */
  printer?: { open(document: string): Promise<{ print(): Promise<boolean>; pdf(): Promise<Buffer>; close(): void }> };
}

/**
 * What the handlers ask of the desktop: links open in the browser only when
 * they are web or mail links; consent is a native dialog whose default is No
 * (and no window means no); files go where the user chose, or nowhere.
 */
export function desktopServices<W extends WindowLike & { show(): void }>(
  desktop: DesktopLike<W>,
): Pick<DesktopPort, 'openExternal' | 'confirm' | 'saveFile' | 'notify' | 'copyText' | 'print'> {
  const saveFile: DesktopPort['saveFile'] = async (suggestedName, bytes) => {
    const window = desktop.mainWindow();
    if (!window) return null;
    // suggestedName is already a plain file name (file-names.ts).
    const result = await desktop.dialog.showSaveDialog(window, { defaultPath: join(desktop.downloadsDir, suggestedName) });
    if (result.canceled || !result.filePath) return null;
    await desktop.writeFile(result.filePath, bytes);
    return result.filePath;
  };
  return {
    openExternal: (url) => {
      const safe = normaliseExternalUrl(url);
      return safe === null ? Promise.resolve() : desktop.shell.openExternal(safe);
    },
    confirm: async (question) => {
      const window = desktop.mainWindow();
      if (!window) return false;
      const result = await desktop.dialog.showMessageBox(window, {
        type: 'warning',
        title: question.title,
        message: question.title,
        detail: question.message,
        buttons: ['Cancel', question.confirmLabel],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      });
      return result.response === 1;
    },
    saveFile,
    print: desktop.printer
      ? async (document, mode, suggestedName) => {
          const shown = await desktop.printer!.open(document);
          try {
            if (mode === 'print') return { printed: await shown.print(), savedTo: null };
            return { printed: false, savedTo: await saveFile(suggestedName, await shown.pdf()) };
          } finally {
            // The hidden window goes whatever happened.
            shown.close();
          }
        }
      : undefined,
    notify: ({ title, body, copy }) =>
      desktop.notification?.({
        title,
        body,
        onClick: () => desktop.mainWindow()?.show(),
        ...(copy ? { action: { label: /^[a-z][a-z0-9+.-]*:/i.test(copy) ? 'Copy the link' : `Copy ${copy}`, run: () => desktop.clipboard.writeText(copy) } } : {}),
      }),
    copyText: (text) => desktop.clipboard.writeText(text),
  };
}

/**
 * Before the window closes: a rule with unsaved changes asks in a native box
 * (Keep editing is the default); false keeps the window open.
 */
export function closeGuard<W>(desktop: Pick<DesktopLike<W>, 'mainWindow' | 'dialog'>, unsavedDraft: () => string | null): () => boolean {
  return () =>
    mayClose(unsavedDraft(), (title) => {
      const window = desktop.mainWindow();
      if (!window) return true;
      const choice = desktop.dialog.showMessageBoxSync(window, {
        type: 'question',
        message: `“${title}” has changes that are not saved.`,
        detail: 'They are kept and come back the next time you open the rules.',
        buttons: ['Keep editing', 'Close anyway'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      });
      return choice === 1;
    });
}

/** The main window: opened now, forgotten when closed, opened again when the dock icon is clicked with none. */
export function wireWindows<W extends { on(event: 'closed', listener: () => void): unknown }>(
  app: AppLike,
  parts: { open: () => W; windowCount: () => number; setMainWindow: (window: W | null) => void },
): void {
  const open = () => {
    const window = parts.open();
    parts.setMainWindow(window);
    window.on('closed', () => parts.setMainWindow(null));
  };
  open();
  app.on('activate', () => {
    if (parts.windowCount() === 0) open();
  });
}
