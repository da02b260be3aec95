import { app, BrowserWindow, globalShortcut, ipcMain, Menu, nativeImage, session, Tray } from 'electron';
import { join } from 'node:path';
import { AccountManager } from './account/accounts.ts';
import { electronCipher } from './account/safe-storage.ts';
import { TokenVault } from './account/vault.ts';
import { Catcher } from './catcher.ts';
import { ListSnapshots } from './list-snapshot.ts';
import { demoService } from './local-service.ts';
import { createHandlers } from './handlers.ts';
import { emitter } from './ipc.ts';
import { closeGuard, desktopServices, wireEarly, wireReady, wireWindows } from './app-wiring.ts';
import { electronDesktop, electronInspector } from './electron-desktop.ts';
import { installMenu } from './menu.ts';
import { aboutPanelOptions } from './menu-template.ts';
import { PROJECT } from './project.ts';
import { startUpdates } from './updates/updates.ts';
import { createMainWindow, registerAppScheme } from './window.ts';
import { systemTray, type SystemTray } from './tray.ts';
import { focusExisting } from './lifecycle.ts';
import type { MenuCommand } from '../shared/contract.ts';

// App lifecycle and wiring: the desktop's parts are electron-desktop.ts, the decisions the modules it wires.

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
    catcher.setSpamd(accounts.settings.spamd);
    void catcher.apply(accounts.catcher, accounts.catcherPassword(), accounts.catcherHasPassword);
    const emit = emitter(() => mainWindow?.webContents ?? null);
    const desktop = electronDesktop({ mainWindow: () => mainWindow, tempDir: app.getPath('temp'), downloadsDir: app.getPath('downloads') });
    let tray: SystemTray | null = null;
    const menuActions = {
      send: (command: MenuCommand) => emit('menuCommand', command),
      showAbout: () => app.showAboutPanel(),
      reportProblem: () => void handlers.table.openExternal({ url: PROJECT.issues }),
    };
    const handlers = createHandlers({
      accounts,
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
      emit,
      mail: { startDemo: demo.start, catcher },
      desktop: {
        ...desktopServices(desktop),
        installUpdate: () => updates?.install(),
        // The dock (macOS) or the launcher (Linux, Unity) shows it; elsewhere it is ignored.
        setBadgeCount: (count) => void app.setBadgeCount(count),
        // The keys beside the menu's items follow the user's keymap: the renderer says them, the menu is built again.
        setMenuKeys: (keys) => installMenu(menuActions, app.isPackaged, keys),
        shortcuts: {
          register: (accelerator, run) => globalShortcut.register(accelerator, run),
          unregister: (accelerator) => globalShortcut.unregister(accelerator),
        },
        onLoopState: (state) => tray?.show(state),
      },
      kept: { pendingDeletesPath: join(app.getPath('userData'), 'pending-deletes.json'), snapshots },
      bench: {
        compatWorker: join(import.meta.dirname, 'compat-worker.js'),
        axeSource: () => import('./qa/axe-source.ts').then((module) => module.AXE_SOURCE),
        inspector: electronInspector(app.getPath('temp')),
      },
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
