import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** Issue 9, item 8: axe finds nothing in any view, light or dark (contrast included). */
async function violations(page: Page, view: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).exclude('iframe[title="Email content"]').analyze();
  return result.violations.map((v) => `${view}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every view passes axe in ${colorScheme} mode`, async ({ openApp }) => {
    // Seven full axe scans: about 20 s alone, more on a busy 2-core machine.
    test.setTimeout(120_000);
    const app = await openApp({ demo: true, colorScheme });
    const { page } = app;
    const found: string[] = [];
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option').first()).toBeVisible();
    // A starred row is in the scan (the star's contrast was a finding).
    await page.keyboard.press('s');
    await expect(list.locator('.star').filter({ hasText: '★' }).first()).toBeVisible();
    found.push(...(await violations(page, 'inbox')));
    await list.getByRole('option').filter({ hasText: 'calmer inbox' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'remote' })).toBeVisible();
    found.push(...(await violations(page, 'reader')));
    await page.getByRole('searchbox', { name: 'Search' }).fill('from:billing is:unread frm:x');
    await expect(page.getByRole('alert').filter({ hasText: 'not a search term' })).toBeVisible();
    found.push(...(await violations(page, 'search')));
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(...(await violations(page, 'shortcuts')));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
    found.push(...(await violations(page, 'palette')));
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await expect(page.getByRole('heading', { name: 'Automations' })).toBeVisible();
    await page.keyboard.press('c');
    await page.getByRole('button', { name: /Save/ }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    found.push(...(await violations(page, 'automations')));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
    found.push(...(await violations(page, 'settings')));
    expect(found).toEqual([]);
  });
}
