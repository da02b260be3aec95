import { expect, test } from './fixtures.ts';

test('a key rebound in Settings is the key everywhere: the dispatcher, the help and the palette; a taken key is refused', async ({ openApp }) => {
  const app = await openApp({ demo: true });
  const { page } = app;
  const list = page.getByRole('listbox', { name: 'Emails' });
  const selected = list.locator('[aria-selected="true"]');
  await expect(selected).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  const section = page.getByRole('region', { name: 'Keyboard shortcuts' });
  // A key another inbox command has is refused, by its name.
  await section.getByRole('button', { name: 'Change the key for Star / unstar' }).click();
  await page.keyboard.press('j');
  await expect(section.getByRole('status')).toHaveText('j is already “Next email” there: choose another key.');
  await section.getByRole('button', { name: 'Change the key for Star / unstar' }).click();
  await page.keyboard.press('Shift+Y');
  await expect(section.getByRole('status')).toHaveText('“Star / unstar” is now Y.');
  await expect.poll(() => app.accounts.settings.keymap).toEqual({ 'inbox.star': ['Y'] });
  // The renderer has the new keymap once the editor lists Y for it (main's answer reached the store).
  await expect(section.getByRole('row').filter({ hasText: 'Star / unstar' }).locator('kbd')).toHaveText('Y');

  await page.keyboard.press('g');
  await page.keyboard.press('i');
  await expect(selected).not.toContainText('★');
  await page.keyboard.press('s');
  await expect(selected).not.toContainText('★');
  await page.keyboard.press('Shift+Y');
  await expect(selected).toContainText('★');

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('row').filter({ hasText: 'Star / unstar' }).locator('kbd')).toHaveText('Y');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await page.keyboard.type('star / unstar');
  await expect(palette.getByRole('option').first().locator('kbd')).toHaveText('Y');
  await page.keyboard.press('Escape');

  // Reset gives the default back.
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  await section.getByRole('button', { name: 'Reset the key for Star / unstar' }).click();
  await expect.poll(() => app.accounts.settings.keymap).toEqual({});
});

test('every key hint follows the keymap: rebound keys show as rebound on the buttons and notices, and a letter rebound for close types in a field', async ({ openApp }) => {
  const app = await openApp({ demo: true });
  const { page } = app;
  const list = page.getByRole('listbox', { name: 'Emails' });
  await expect(list.locator('[aria-selected="true"]')).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  const section = page.getByRole('region', { name: 'Keyboard shortcuts' });
  // The menu shows the registry's keys from the start.
  await expect.poll(() => app.menuKeys.at(-1)).toMatchObject({ 'new-address': 'N', 'show-shortcuts': '?', refresh: 'r' });
  for (const [title, key, shown] of [
    ['Show the raw message', '7', '7'],
    ['Undo the last delete', 'Shift+Z', 'Z'],
    ['Close the email, or leave the field', 'q', 'q'],
    ['New address to test with', 'M', 'M'],
    ['Go to settings', 'Alt+s', 'Alt+s'],
    ['Show keyboard shortcuts', 'h', 'h'],
  ] as const) {
    await section.getByRole('button', { name: `Change the key for ${title}` }).click();
    await page.keyboard.press(key);
    await expect(section.getByRole('row').filter({ hasText: title }).locator('kbd')).toHaveText(shown);
  }
  // Main is told, and builds the File menu again: New address shows M now.
  await expect.poll(() => app.menuKeys.at(-1)?.['new-address']).toBe('M');
  // The views' buttons, the demo banner, the settings' labels and the empty reader follow too.
  const views = page.getByRole('navigation', { name: 'Views' });
  await expect(views.getByRole('button', { name: /^Settings/ }).locator('kbd')).toHaveText('Alt+s');
  await expect(page.getByRole('status').getByRole('button', { name: 'Settings (Alt+s)' })).toBeVisible();
  await expect(page.getByText('Fresh addresses (M)').first()).toBeVisible();
  await expect(page.getByText('Fresh addresses (N)')).toHaveCount(0);
  await expect(page.getByText('g s', { exact: true })).toHaveCount(0);
  await page.keyboard.press('g');
  await page.keyboard.press('i');
  await expect(page.getByText('Select an email and press Enter. Press h for all shortcuts.')).toBeVisible();
  await list.getByRole('option').first().click();
  await page.keyboard.press('Enter');
  const tabs = page.getByRole('tablist', { name: 'View as' });
  await expect(tabs.getByRole('tab', { name: 'Raw (7)' })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: 'Raw (3)' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Close (q)' })).toBeVisible();
  await page.keyboard.press('#');
  await expect(page.getByRole('button', { name: 'Undo (Z)' })).toBeVisible();
  await page.keyboard.press('Shift+Z');
  await expect(page.getByRole('button', { name: 'Undo (Z)' })).toHaveCount(0);
  // q closes from the list, but in the search box it is a letter.
  await page.keyboard.press('/');
  await page.keyboard.type('quota');
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('quota');
});

test('the attachment chooser takes Esc and its close button, and a number saves', async ({ openApp }) => {
  const app = await openApp({ demo: true });
  const { page } = app;
  const list = page.getByRole('listbox', { name: 'Emails' });
  await expect(list.locator('[aria-selected="true"]')).toBeVisible();
  // An invoice has two attachments: a chooses between them (with one, a saves it at once).
  await list.getByRole('option').filter({ hasText: 'Invoice INV-2026-1003' }).click();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'Attachments' })).toBeVisible();
  const chooser = page.getByRole('dialog', { name: 'Save an attachment' });
  await page.keyboard.press('a');
  await expect(chooser).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(chooser).toHaveCount(0);
  await page.keyboard.press('a');
  await chooser.getByRole('button', { name: /close/i }).click();
  await expect(chooser).toHaveCount(0);
});
