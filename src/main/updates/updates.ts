/**
 * electron-updater behind the plain policy (policy.ts). The feed URL comes
 * from app-update.yml, which electron-builder writes only when the build
 * config has a `publish` entry: no entry, no checks.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import electronUpdater from 'electron-updater';
import { feedUrlFrom, UpdateChecker, type UpdateStatus } from './policy.ts';
import { realTimer } from '../timer.ts';

export async function startUpdates(options: {
  isPackaged: boolean;
  version: string;
  onStatus: (status: UpdateStatus) => void;
}): Promise<{ install: () => void; stop: () => void }> {
  const { autoUpdater } = electronUpdater;
  const configText = options.isPackaged ? await readFile(join(process.resourcesPath, 'app-update.yml'), 'utf8').catch(() => null) : null;
  autoUpdater.autoDownload = false;
  autoUpdater.autoInstallOnAppQuit = true;
  const checker = new UpdateChecker({
    feedUrl: feedUrlFrom(configText),
    currentVersion: options.version,
    platform: process.platform,
    fetchText: async (url) => {
      const response = await fetch(url, { signal: AbortSignal.timeout(15_000), redirect: 'follow' });
      if (!response.ok) throw new Error(`update feed answered ${response.status}`);
      return response.text();
    },
    // electron-updater verifies the SHA-512 and the signature where the platform has one.
    download: async () => {
      const found = await autoUpdater.checkForUpdates();
      if (!found?.isUpdateAvailable) throw new Error('no update after all');
      await autoUpdater.downloadUpdate();
    },
    onStatus: options.onStatus,
    setTimer: realTimer,
    now: Date.now,
  });
  checker.start();
  return {
    // Only ever on the user's word.
    install: () => {
      if (checker.current.state === 'ready') autoUpdater.quitAndInstall();
    },
    stop: () => checker.stop(),
  };
}
