import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';

/** Issue 9, items 5 and 6: a real modal for the shortcuts, and a command palette. */
for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test('the shortcuts overlay is modal: keys behind it do nothing, Tab stays in, Esc and × close it, it scrolls', async ({ openApp }) => {
      const app = await openApp({ demo: true, viewport });
      const { page } = app;
      const list = page.getByRole('listbox', { name: 'Emails' });
      const selected = list.locator('[aria-selected="true"]');
      await expect(selected).toBeVisible();
      const before = await selected.textContent();
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(dialog).toBeVisible();
      await page.keyboard.press('j');
      await page.keyboard.press('s');
      await expect(selected).toHaveText(before!);
      await expect(list.locator('[aria-selected="true"]')).not.toContainText('★');
      for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
      // Everything fits, or scrolls: the last row can be reached.
      const last = dialog.getByRole('row').last();
      await last.scrollIntoViewIfNeeded();
      await expect(last).toBeInViewport();
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await page.keyboard.press('?');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toHaveCount(0);
    });

    test('the command palette finds every action by name, shows its key, and runs it', async ({ openApp }) => {
      const app = await openApp({ demo: true, viewport });
      const { page } = app;
      const list = page.getByRole('listbox', { name: 'Emails' });
      await expect(list.locator('[aria-selected="true"]')).toBeVisible();
      await page.keyboard.press('Control+k');
      const palette = page.getByRole('dialog', { name: 'Command palette' });
      const input = palette.getByRole('combobox', { name: 'Command' });
      await expect(input).toBeFocused();
      await page.keyboard.type('star / un');
      const first = palette.getByRole('option').first();
      await expect(first).toContainText('Star / unstar');
      await expect(first.locator('kbd')).toHaveText('s');
      await page.keyboard.press('Enter');
      await expect(palette).toHaveCount(0);
      await expect(list.locator('[aria-selected="true"]')).toContainText('★');

      await page.keyboard.press('Control+k');
      await page.keyboard.type('gtst');
      await expect(palette.getByRole('option').first()).toContainText('Go to settings');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Accounts' })).toBeVisible();
      // Keys typed in the palette never reach the app behind it.
      await page.keyboard.press('Control+k');
      await page.keyboard.type('zzzq');
      await expect(palette.getByText('No command matches “zzzq”.')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(palette).toHaveCount(0);
    });

    test('each entry runs exactly what it names, not the first action of its key group (issue 21)', async ({ openApp }) => {
      const { page } = await openApp({ demo: true, viewport });
      const list = page.getByRole('listbox', { name: 'Emails' });
      await expect(list.locator('[aria-selected="true"]')).toBeVisible();
      const palette = page.getByRole('dialog', { name: 'Command palette' });
      const runCommand = async (name: string) => {
        await page.keyboard.press('Control+k');
        await palette.getByRole('option', { name: new RegExp(`^${name}`) }).click();
        await expect(palette).toHaveCount(0);
      };
      await runCommand('Last email on the page');
      await expect(list.getByRole('option').last()).toHaveAttribute('aria-selected', 'true');
      await runCommand('First email on the page');
      await expect(list.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await runCommand('Show the raw message');
      await expect(page.getByRole('tab', { name: 'Raw (3)' })).toHaveAttribute('aria-selected', 'true');
      await runCommand('Show the headers');
      await expect(page.getByRole('tab', { name: 'Headers (4)' })).toHaveAttribute('aria-selected', 'true');
      await runCommand('Show the text view');
      await expect(page.getByRole('tab', { name: 'Text (2)' })).toHaveAttribute('aria-selected', 'true');
      await runCommand('Extend the selection down');
      await expect(list.locator('[aria-checked="true"]')).toHaveCount(2);
      await runCommand('Select none');
      // Every action is one entry: the palette lists each name once.
      await page.keyboard.press('Control+k');
      const names = await palette.getByRole('option').allTextContents();
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((n) => n.startsWith('Show the raw message'))).toHaveLength(1);
    });
  });
}

/** The README's keys table as rows of (key, the name it gives the command), where its keys and names pair up. */
function readmeNames(): { key: string; name: string }[] {
  const readme = readFileSync('README.md', 'utf8');
  const table = readme.slice(readme.indexOf('## Keys'), readme.indexOf('## Read more'));
  const pairs: { key: string; name: string }[] = [];
  for (const line of table.split('\n')) {
    const cells = /^\| (.+?) \| (.+?) \|$/.exec(line);
    if (!cells || !cells[1]!.includes('`')) continue;
    const keys = [...cells[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    // Names are comma-separated, a comma inside parentheses aside; what is in parentheses is a note.
    const names = cells[2]!.split(/,\s*(?![^()]*\))/).map((name) => name.replace(/\s*\([^)]*\)/g, '').trim());
    if (keys.length === names.length) keys.forEach((key, i) => pairs.push({ key, name: names[i]! }));
  }
  return pairs;
}

test('the palette finds each command first by the name the README gives it, and says why one cannot run here', async ({ openApp }) => {
  const { page } = await openApp({ demo: true });
  const list = page.getByRole('listbox', { name: 'Emails' });
  await expect(list.locator('[aria-selected="true"]')).toBeVisible();
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  const input = palette.getByRole('combobox', { name: 'Command' });
  const pairs = readmeNames();
  // Every row of the table is read: its keys and its names pair up.
  expect(pairs.length).toBeGreaterThanOrEqual(30);
  await page.keyboard.press('Control+k');
  for (const { key, name } of pairs) {
    await input.fill(name);
    const first = palette.getByRole('option').first();
    // The key shown for the first match is the README's (Esc for Escape, as the palette writes it).
    await expect(first.locator('kbd'), `“${name}”`).toContainText(key);
  }
  // With the list focused and no email open, a reader command runs on the selected email…
  await input.fill('raw');
  await expect(palette.getByRole('option').first()).toContainText('Show the raw message — on the selected email');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Raw (3)' })).toHaveAttribute('aria-selected', 'true');
  // …and one that cannot run here is listed dimmed, with why; Enter there does nothing.
  await page.keyboard.press('Control+k');
  await input.fill('new automation');
  const rule = palette.getByRole('option').first();
  await expect(rule).toContainText('New automation — In Automations (g a)');
  await expect(rule).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  await expect(palette).toBeVisible();
  await input.fill('turn chaos off');
  await expect(palette.getByRole('option').first()).toContainText('— Not available now');
});
