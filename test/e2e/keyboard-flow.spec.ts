/**
 * Keyboard triage that never loses the user's place (issue 21): focus never
 * rests on <body>, Esc closes an email in one press, undo puts every email
 * back where it was and steps back through several deletes, the highlight is
 * the open email, and j/k run on across pages. Real keys, a real service.
 */
import type { Page } from '@playwright/test';
import { startReferenceService, type AccessLogEntry, type RunningService } from '../../src/server/index.ts';
import { COMMANDS } from '../../src/renderer/src/features/commands/all.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

const TOKEN = 'flow-token-1';

/** What has the focus: never <body>. */
const focused = (page: Page) => page.evaluate(() => (document.activeElement === document.body ? 'BODY' : (document.activeElement?.id || document.activeElement?.tagName || 'none')));

test.describe('keyboard triage keeps the user’s place', () => {
  let service: RunningService;
  const log: AccessLogEntry[] = [];
  test.beforeEach(async () => {
    log.length = 0;
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], onResponse: (entry) => log.push(entry) });
    for (let i = 1; i <= 30; i++) {
      const [id] = await service.inject(rawMail({ subject: `Mail ${String(i).padStart(2, '0')}`, text: `Body ${i}` }));
      service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, 1, 0, i)) });
    }
  });
  test.afterEach(() => service.close());

  const open = async (openApp: Parameters<Parameters<typeof test>[2]>[0]['openApp']) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await expect(app.page.getByRole('listbox', { name: 'Emails' }).getByRole('option')).toHaveCount(25);
    return app;
  };
  const subjects = (page: Page) => page.getByRole('listbox', { name: 'Emails' }).getByRole('option').locator('.subject').allTextContents();
  const selected = (page: Page) => page.getByRole('listbox', { name: 'Emails' }).locator('[aria-selected="true"]');

  test('focus is never left on <body>: at launch, after Esc in search, after g a / g s / g i', async ({ openApp }) => {
    const { page } = await open(openApp);
    await expect.poll(() => focused(page)).toBe('email-list');
    await page.keyboard.press('/');
    await expect.poll(() => focused(page)).toBe('search');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('email-list');
    for (const view of ['a', 's', 'i']) {
      await page.keyboard.press('g');
      await page.keyboard.press(view);
      await expect.poll(() => focused(page), `g ${view}`).not.toBe('BODY');
    }
    await expect.poll(() => focused(page)).toBe('email-list');
    // A chip's ✕, clicked, goes away with the focus in it: the focus comes back to the list.
    await page.keyboard.press('U');
    const chip = page.getByRole('button', { name: /Remove/ }).first();
    await chip.click();
    await expect.poll(() => focused(page)).not.toBe('BODY');
  });

  test('no action of the keymap leaves the focus on <body>, in the reader, the rules and the settings', async ({ openApp }) => {
    test.setTimeout(120_000);
    const { page } = await open(openApp);
    /** A registry binding (chords split by spaces) as Playwright's key names. */
    const press = async (binding: string) => {
      for (const chord of binding.split(' ')) await page.keyboard.press(chord === 'Space' ? ' ' : chord.replace('Mod+', 'Control+'));
    };
    const modal = page.locator('[role="dialog"][aria-modal="true"]');
    // Actions that leave for a form of their own are checked on their own below.
    const skip = new Set(['reader.rule-from-email', 'rules.new']);
    const places: [string, () => Promise<void>][] = [
      ['the reader', async () => {
        await press('g i');
        if ((await page.locator('.message-pane.empty').count()) > 0) await page.keyboard.press('Enter');
      }],
      ['the rules', () => press('g a')],
      ['the settings', () => press('g s')],
    ];
    for (const [place, goTo] of places) {
      for (const { id, keys } of COMMANDS) {
        if (skip.has(id) || keys.length === 0) continue;
        await goTo();
        await press(keys[0]!);
        // A modal (help, palette, chooser) holds the focus itself; it is closed before the next key.
        await expect.poll(() => focused(page), `${keys[0]} (${id}) in ${place}`).not.toBe('BODY');
        for (let i = 0; i < 2 && (await modal.count()) > 0; i++) await page.keyboard.press('Escape');
        if (id === 'inbox.search' || id === 'rules.filter') await page.keyboard.press('Escape');
      }
    }
    await press('g i');
    await page.keyboard.press('R');
    await expect.poll(() => focused(page), 'R').not.toBe('BODY');
  });

  test('one Esc closes the open email while the list has the focus', async ({ openApp }) => {
    const { page } = await open(openApp);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Mail 30' })).toBeVisible();
    await page.getByRole('listbox', { name: 'Emails' }).focus();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Mail 30' })).toHaveCount(0);
    await expect.poll(() => focused(page)).toBe('email-list');
  });

  test('* a, #, z: all 25 come back in their order, and the spent toast goes', async ({ openApp }) => {
    const { page } = await open(openApp);
    const before = await subjects(page);
    await page.keyboard.press('*');
    await page.keyboard.press('a');
    await page.keyboard.press('#');
    await expect(page.getByText('Deleted 25 emails.')).toBeVisible();
    await page.keyboard.press('z');
    await expect(page.getByText('25 emails are back.')).toBeVisible();
    await expect(page.getByText('Deleted 25 emails.')).toHaveCount(0);
    expect(await subjects(page)).toEqual(before);
    // The server heard of none of it.
    await page.waitForTimeout(5600);
    expect(log.filter((entry) => entry.method === 'DELETE')).toEqual([]);
  });

  test('three deletes, three z: each comes back where it was, newest first, and the highlight is the open email', async ({ openApp }) => {
    const { page } = await open(openApp);
    const before = await subjects(page);
    // Open Mail 28 (third row) and delete it and the next two from the reader.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Mail 28' })).toBeVisible();
    for (const next of ['Mail 27', 'Mail 26', 'Mail 25']) {
      await page.keyboard.press('#');
      await expect(page.getByRole('heading', { name: next })).toBeVisible();
    }
    expect(await subjects(page)).toEqual(before.filter((s) => !['Mail 28', 'Mail 27', 'Mail 26'].includes(s)));
    for (const back of ['Mail 26', 'Mail 27', 'Mail 28']) {
      await page.keyboard.press('z');
      // The email deleted while open opens again, and the highlight is on it: s or # act on what is seen.
      await expect(page.getByRole('heading', { name: back })).toBeVisible();
      await expect(selected(page)).toContainText(back);
    }
    expect(await subjects(page)).toEqual(before);
    // Every Undo toast is spent: none is left offering z.
    await expect(page.getByRole('button', { name: 'Undo (z)' })).toHaveCount(0);
    await page.keyboard.press('s');
    await expect(selected(page)).toContainText('★');
    await expect(selected(page)).toContainText('Mail 28');
  });

  test('j past the last row goes on to the next page’s first email, k back to the previous page’s last', async ({ openApp }) => {
    const { page } = await open(openApp);
    await page.keyboard.press('G');
    await expect(selected(page)).toContainText('Mail 06');
    await page.keyboard.press('Enter');
    await page.keyboard.press('j');
    await expect(page.getByText('26–30 of 30')).toBeVisible();
    await expect(selected(page)).toContainText('Mail 05');
    // The reader followed.
    await expect(page.getByRole('heading', { name: 'Mail 05' })).toBeVisible();
    await page.keyboard.press('k');
    await expect(page.getByText('1–25 of 30')).toBeVisible();
    await expect(selected(page)).toContainText('Mail 06');
    await expect(page.getByRole('heading', { name: 'Mail 06' })).toBeVisible();
  });
});
