import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { BRIDGE_SPEC } from '../../src/shared/bridge-spec.ts';

/**
 * The Electron binary. Electron 45 fetches it at its first start, not at
 * npm install: `require('electron')` answers its path and fetches it if
 * missing, as on a desktop's first `npm test`. Where that download cannot
 * happen (ELECTRON_SKIP_BINARY_DOWNLOAD, as on our CI machines), only a
 * binary already there is used, and without one the spec is skipped.
 */
function electronBinary(): string | null {
  const packageDir = resolve('node_modules/electron');
  const pathFile = join(packageDir, 'path.txt');
  if (existsSync(pathFile)) {
    const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    if (existsSync(binary)) return binary;
  }
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return null;
  try {
    return createRequire(import.meta.url)('electron') as string;
  } catch {
    return null;
  }
}

const binary = electronBinary();

test.describe('the real Electron app', () => {
  test.skip(binary === null, 'No Electron binary here and ELECTRON_SKIP_BINARY_DOWNLOAD is set (our CI machines); on a desktop it runs, fetching Electron at its first start');

  test('starts in demo mode and walks the smoke flow', async () => {
    const app = await electron.launch({ executablePath: binary!, args: ['.'], env: { ...process.env, NODE_ENV: 'production' } });
    try {
      const page = await app.firstWindow();
      await expect(page.getByRole('status').filter({ hasText: 'demo data' })).toBeVisible();
      await expect(page.getByRole('option').first()).toContainText('Follow-up #6: meeting notes');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Follow-up #6: meeting notes' })).toBeVisible();
      // The renderer has no Node and no ipcRenderer: only the contract's API.
      const globals = await page.evaluate(() => ({
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
        apiKeys: Object.keys(window.api).sort(),
      }));
      // Exactly the contract's methods and `on`, derived from the contract: it stays current as the contract grows.
      expect(globals).toEqual({ require: 'undefined', process: 'undefined', apiKeys: [...BRIDGE_SPEC.methods, 'on'].sort() });
    } finally {
      await app.close();
    }
  });
});
