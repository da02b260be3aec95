import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

/**
 * The Electron binary, when one is installed (not where downloads from GitHub
 * fail). Read from the package's path.txt: requiring 'electron' would try to
 * download a missing binary.
 */
function electronBinary(): string | null {
  const packageDir = resolve('node_modules/electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();

test.describe('the real Electron app', () => {
  test.skip(binary === null, 'No Electron binary installed here (ELECTRON_SKIP_BINARY_DOWNLOAD); runs on a desktop after npm install');

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
        apiKeys: Object.keys(window.api).length,
      }));
      expect(globals).toEqual({ require: 'undefined', process: 'undefined', apiKeys: 20 });
    } finally {
      await app.close();
    }
  });
});
