import { app, BrowserWindow, clipboard, dialog, globalShortcut, ipcMain, Menu, nativeImage, Notification, session, shell, Tray } from 'electron';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AccountManager } from './account/accounts.ts';
import { electronCipher } from './account/safe-storage.ts';
import { TokenVault } from './account/vault.ts';
import { Catcher } from './catcher.ts';
import { ListSnapshots } from './list-snapshot.ts';
import { demoService } from './local-service.ts';
import { createHandlers } from './handlers.ts';
import { emitter } from './ipc.ts';
import { closeGuard, desktopServices, wireEarly, wireReady, wireWindows, type DesktopLike } from './app-wiring.ts';
import { installMenu } from './menu.ts';
import { aboutPanelOptions } from './menu-template.ts';
import { PROJECT } from './project.ts';
import { startUpdates } from './updates/updates.ts';
import { createMainWindow, registerAppScheme } from './window.ts';
import { systemTray, type SystemTray } from './tray.ts';
import { focusExisting } from './lifecycle.ts';
import { openHidden } from './hidden-window.ts';
import type { MenuCommand } from '../shared/contract.ts';

/** Shows `document` in one of main's hidden windows: from a temporary file, gone once loaded. */
async function loadDocument(window: BrowserWindow, document: string, kind: 'print' | 'inspect'): Promise<void> {
  const file = join(app.getPath('temp'), `inbox-desk-${kind}-${randomUUID()}.html`);
  await writeFile(file, document);
  try {
    await window.loadFile(file);
  } finally {
    void rm(file, { force: true });
  }
}

/** The isolated world main's checks run in, beside an inspected email (never its own). */
const INSPECTOR_WORLD = 4242;
/** An inspected email is laid out this tall at most (a 2 MB newsletter would be a 100,000 px screenshot). */
const INSPECTOR_MAX_HEIGHT = 6000;

// App lifecycle only: every decision lives in modules that run without Electron.

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  app.enableSandbox();
  let mainWindow: BrowserWindow | null = null;
  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const resourcesDir = app.isPackaged ? join(process.resourcesPath, 'resources') : join(app.getAppPath(), 'resources');
  const workerPath = join(import.meta.dirname, 'local-service-worker.js');
  const demo = demoService(resourcesDir, workerPath);

  wireEarly(app, { platform: process.platform, mainWindow: () => mainWindow });

  void app.whenReady().then(async () => {
    let updates: Awaited<ReturnType<typeof startUpdates>> | null = null;
    const iconPath = join(resourcesDir, 'icon.png');
    app.setAboutPanelOptions(
      aboutPanelOptions({ name: 'Inbox Desk', version: app.getVersion(), license: PROJECT.license, homepage: PROJECT.homepage, electron: process.versions.electron, iconPath }),
    );
    const [accounts, snapshots] = await Promise.all([
      AccountManager.load(join(app.getPath('userData'), 'settings.json'), new TokenVault(electronCipher)),
      ListSnapshots.load(join(app.getPath('userData'), 'first-screen.json')),
    ]);
    // "This computer" catches mail from launch while it is on, whichever account is shown.
    const catcher = new Catcher({ workerPath, dataDir: join(app.getPath('userData'), 'catcher') }, accounts.catcher, accounts.catcherHasPassword, accounts.pinnedChaos);
    catcher.setRelay(accounts.relayConfig());
    void catcher.apply(accounts.catcher, accounts.catcherPassword(), accounts.catcherHasPassword);
    const emit = emitter(() => mainWindow?.webContents ?? null);
    const desktop: DesktopLike<BrowserWindow> = {
      mainWindow: () => mainWindow,
      dialog,
      shell,
      clipboard,
      notification: Notification.isSupported()
        ? ({ title, body, onClick, action }) => {
            // Buttons exist on macOS and Windows; elsewhere a click is the Copy, and the body says so.
            const buttons = process.platform === 'darwin' || process.platform === 'win32';
            const shown = new Notification({
              title,
              body: action && !buttons ? `${body}\nClick to copy it.` : body,
              silent: false,
              ...(action && buttons ? { actions: [{ type: 'button' as const, text: action.label }] } : {}),
            });
            shown.on('click', () => {
              if (action && !buttons) action.run();
              onClick();
            });
            shown.on('action', () => action?.run());
            shown.show();
          }
        : undefined,
      downloadsDir: app.getPath('downloads'),
      writeFile,
      printer: {
        open: async (document) => {
          // A window of its own, never shown: no scripts, no preload, the document's own policy; the guards apply to it too.
          return openHidden(
            () => new BrowserWindow({ show: false, webPreferences: { javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false } }),
            async (window) => {
              await loadDocument(window, document, 'print');
              return {
                print: () => new Promise<boolean>((resolve) => window.webContents.print({ printBackground: true }, (printed) => resolve(printed))),
                pdf: () => window.webContents.printToPDF({ printBackground: true }),
                close: () => window.destroy(),
              };
            },
          );
        },
      },
    };
    let tray: SystemTray | null = null;
    const menuActions = {
      send: (command: MenuCommand) => emit('menuCommand', command),
      showAbout: () => app.showAboutPanel(),
      reportProblem: () => void handlers.table.openExternal({ url: PROJECT.issues }),
    };
    const handlers = createHandlers({
      accounts,
      startDemo: demo.start,
      catcher,
      ...desktopServices(desktop),
      emit,
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
      installUpdate: () => updates?.install(),
      // The dock (macOS) or the launcher (Linux, Unity) shows it; elsewhere it is ignored.
      setBadgeCount: (count) => void app.setBadgeCount(count),
      // The keys beside the menu's items follow the user's keymap: the renderer says them, the menu is built again.
      setMenuKeys: (keys) => installMenu(menuActions, app.isPackaged, keys),
      compatWorker: join(import.meta.dirname, 'compat-worker.js'),
      axeSource: () => import('./qa/axe-source.ts').then((module) => module.AXE_SOURCE),
      inspector: async (document, width) => {
        // Never shown, drawn off screen; sandboxed, no preload. The document's policy lets none of its own
        // scripts run (it is sanitized besides); main's run in an isolated world beside it. The guards apply.
        const make = () =>
          new BrowserWindow({
            show: false,
            width,
            height: 800,
            useContentSize: true,
            webPreferences: { offscreen: true, sandbox: true, contextIsolation: true, nodeIntegration: false },
          });
        return openHidden(make, async (window) => {
          await loadDocument(window, document, 'inspect');
          const evaluate = (code: string) => window.webContents.executeJavaScriptInIsolatedWorld(INSPECTOR_WORLD, [{ code }]);
          // As tall as the email (up to a limit): contrast is judged, and a screenshot taken, on what is laid out.
          const height = Number(await evaluate('document.documentElement.scrollHeight')) || 800;
          window.setContentSize(width, Math.min(INSPECTOR_MAX_HEIGHT, Math.max(200, height)));
          await evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
          return {
            evaluate,
            screenshot: async () => (await window.webContents.capturePage()).toPNG(),
            close: () => window.destroy(),
          };
        });
      },
      pendingDeletesPath: join(app.getPath('userData'), 'pending-deletes.json'),
      snapshots,
      shortcuts: {
        register: (accelerator, run) => globalShortcut.register(accelerator, run),
        unregister: (accelerator) => globalShortcut.unregister(accelerator),
      },
      onLoopState: (state) => tray?.show(state),
    });
    // The tray (the menu bar on macOS): the newest code, one click from the clipboard.
    tray = systemTray(
      {
        make: () => new Tray(nativeImage.createFromPath(iconPath).resize({ width: 16, height: 16 })),
        menu: (items) => Menu.buildFromTemplate(items),
      },
      {
        'copy-newest': () => void handlers.loop.copyNewest(),
        'new-address': () => void handlers.loop.newAddress().catch((error: unknown) => desktop.notification?.({ title: 'No new address', body: error instanceof Error ? error.message : String(error), onClick: () => mainWindow?.show() })),
        show: () => (mainWindow ? focusExisting(mainWindow) : undefined),
        quit: () => app.quit(),
      },
    );
    tray.show(handlers.loop.state);
    wireReady(app, {
      ipcMain,
      protocol: session.defaultSession.protocol,
      handlers,
      rendererDir: join(import.meta.dirname, '../renderer'),
      devServerUrl,
      snapshots,
      onWillQuit: () => {
        updates?.stop();
        globalShortcut.unregisterAll();
        tray?.destroy();
        void demo.stop();
        void catcher.stop();
      },
      onSignal: (signal, listener) => process.on(signal, listener),
    });
    installMenu(menuActions, app.isPackaged);
    wireWindows(app, {
      open: () =>
        createMainWindow({
          preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
          devServerUrl,
          isPackaged: app.isPackaged,
          iconPath,
          state: accounts.windowState,
          onStateChange: (state) => void accounts.saveWindowState(state),
          // A rule with unsaved changes: ask (it also comes back on the next start).
          confirmClose: closeGuard(desktop, handlers.unsavedDraft),
        }),
      windowCount: () => BrowserWindow.getAllWindows().length,
      setMainWindow: (window) => (mainWindow = window),
    });
    // After the window: the update check reads its feed's file, and the first screen waits for nothing of it.
    updates = await startUpdates({ isPackaged: app.isPackaged, version: app.getVersion(), onStatus: (status) => emit('updateStatus', status) });
  });
}
