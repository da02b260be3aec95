import { app, BrowserWindow, clipboard, dialog, ipcMain, Notification, session, shell } from 'electron';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AccountManager } from './account/accounts.ts';
import { electronCipher } from './account/safe-storage.ts';
import { TokenVault } from './account/vault.ts';
import { demoStarter } from './demo.ts';
import { createHandlers } from './handlers.ts';
import { emitter } from './ipc.ts';
import { wireEarly, wireReady } from './app-wiring.ts';
import { mayClose } from './lifecycle.ts';
import { installMenu } from './menu.ts';
import { aboutPanelOptions } from './menu-template.ts';
import { PROJECT } from './project.ts';
import { startUpdates } from './updates/updates.ts';
import { normaliseExternalUrl } from './security.ts';
import { createMainWindow, registerAppScheme } from './window.ts';

// App lifecycle only: every decision lives in modules that run without Electron.

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  app.enableSandbox();
  let mainWindow: BrowserWindow | null = null;
  const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const resourcesDir = app.isPackaged ? join(process.resourcesPath, 'resources') : join(app.getAppPath(), 'resources');
  const demo = demoStarter(resourcesDir, join(import.meta.dirname, 'demo-worker.js'));

  wireEarly(app, { platform: process.platform, mainWindow: () => mainWindow });

  void app.whenReady().then(async () => {
    let updates: Awaited<ReturnType<typeof startUpdates>> | null = null;
    const iconPath = join(resourcesDir, 'icon.png');
    app.setAboutPanelOptions(
      aboutPanelOptions({ name: 'Inbox Desk', version: app.getVersion(), license: PROJECT.license, homepage: PROJECT.homepage, electron: process.versions.electron, iconPath }),
    );
    const accounts = await AccountManager.load(join(app.getPath('userData'), 'settings.json'), new TokenVault(electronCipher));
    const emit = emitter(() => mainWindow?.webContents ?? null);
    const handlers = createHandlers({
      accounts,
      startDemo: demo.start,
      openExternal: (url) => {
        const safe = normaliseExternalUrl(url);
        return safe === null ? Promise.resolve() : shell.openExternal(safe);
      },
      confirm: async (question) => {
        const options = {
          type: 'warning' as const,
          title: question.title,
          message: question.title,
          detail: question.message,
          buttons: ['Cancel', question.confirmLabel],
          defaultId: 0,
          cancelId: 0,
          noLink: true,
        };
        const result = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
        return result.response === 1;
      },
      saveFile: async (suggestedName, bytes) => {
        const target = mainWindow ?? undefined;
        // suggestedName is already a plain file name (file-names.ts).
        const options = { defaultPath: join(app.getPath('downloads'), suggestedName) };
        const result = target ? await dialog.showSaveDialog(target, options) : await dialog.showSaveDialog(options);
        if (result.canceled || !result.filePath) return null;
        await writeFile(result.filePath, bytes);
        return result.filePath;
      },
      emit,
      app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
      installUpdate: () => updates?.install(),
      notify: (title, body) => {
        if (!Notification.isSupported()) return;
        const shown = new Notification({ title, body, silent: false });
        shown.on('click', () => mainWindow?.show());
        shown.show();
      },
      // The dock (macOS) or the launcher (Linux, Unity) shows it; elsewhere it is ignored.
      setBadgeCount: (count) => void app.setBadgeCount(count),
      copyText: (text) => clipboard.writeText(text),
    });
    wireReady(app, {
      ipcMain,
      protocol: session.defaultSession.protocol,
      handlers,
      rendererDir: join(import.meta.dirname, '../renderer'),
      devServerUrl,
      onWillQuit: () => {
        updates?.stop();
        void demo.stop();
      },
    });
    installMenu(
      {
        send: (command) => emit('menuCommand', command),
        showAbout: () => app.showAboutPanel(),
        reportProblem: () => void handlers.table.openExternal({ url: PROJECT.issues }),
      },
      app.isPackaged,
    );
    updates = await startUpdates({ isPackaged: app.isPackaged, version: app.getVersion(), onStatus: (status) => emit('updateStatus', status) });

    const open = () => {
      mainWindow = createMainWindow({
        preloadPath: join(import.meta.dirname, '../preload/index.cjs'),
        devServerUrl,
        isPackaged: app.isPackaged,
        iconPath,
        state: accounts.windowState,
        onStateChange: (state) => void accounts.saveWindowState(state),
        // A rule with unsaved changes: ask (it also comes back on the next start).
        confirmClose: () =>
          mayClose(handlers.unsavedDraft(), (title) => {
            if (!mainWindow) return true;
            const choice = dialog.showMessageBoxSync(mainWindow, {
              type: 'question',
              message: `“${title}” has changes that are not saved.`,
              detail: 'They are kept and come back the next time you open the rules.',
              buttons: ['Keep editing', 'Close anyway'],
              defaultId: 0,
              cancelId: 0,
              noLink: true,
            });
            return choice === 1;
          }),
      });
      mainWindow.on('closed', () => (mainWindow = null));
    };
    open();
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) open();
    });
  });

}
