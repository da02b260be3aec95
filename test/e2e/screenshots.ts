/**
 * Screenshots of the real renderer through the test host, on the demo corpus:
 * the inbox with an email open, the search box, the shortcuts overlay and the
 * command palette, light and dark, at
 * 1280×800 and 800×600. Run: npm run screenshots (after npm run build).
 */
import { chromiumPath } from '../support/browser.ts';
import { mkdir } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { openApp } from './host.ts';

const out = 'docs/screenshots';
await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  ...(chromiumPath ? { executablePath: chromiumPath } : {}),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
      const app = await openApp(browser, { demo: true, viewport, colorScheme });
      const { page } = app;
      const size = `${viewport.width}x${viewport.height}`;
      const list = page.getByRole('listbox', { name: 'Emails' });
      await list.getByRole('option').filter({ hasText: 'calmer inbox' }).click();
      await page.frameLocator('iframe[title="Email content"]').getByRole('heading').first().waitFor();
      await page.locator('iframe[title="Email content"]').evaluate((frame) => new Promise((r) => (frame as HTMLIFrameElement).style.height ? r(null) : frame.addEventListener('load', () => r(null))));
      await page.screenshot({ path: `${out}/inbox-${colorScheme}-${size}.png` });
      await page.getByRole('searchbox', { name: 'Search' }).fill('from:billing is:unread frm:x');
      await page.screenshot({ path: `${out}/search-${colorScheme}-${size}.png` });
      await page.getByRole('searchbox', { name: 'Search' }).fill('');
      await page.keyboard.press('Escape');
      await page.locator('body').click({ position: { x: 2, y: viewport.height - 2 } });
      await page.keyboard.press('?');
      await page.getByRole('dialog').waitFor();
      await page.screenshot({ path: `${out}/shortcuts-${colorScheme}-${size}.png` });
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+k');
      await page.keyboard.type('sta');
      await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
      await page.screenshot({ path: `${out}/palette-${colorScheme}-${size}.png` });
      await app.close();
      console.log(`${out}/*-${colorScheme}-${size}.png`);
    }
  }
} finally {
  await browser.close();
}
