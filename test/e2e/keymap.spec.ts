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
