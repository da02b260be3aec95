/**
 * A keyboard-only run through 50 emails (issue 21): open, star, delete,
 * select and bulk-delete, undo several, search, page turns, with new mail
 * arriving meanwhile. At the end the server's log of writes is exactly the
 * writes intended, and the list on screen is in the server's order.
 */
import type { Page } from '@playwright/test';
import { startReferenceService, type AccessLogEntry } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

const TOKEN = 'run-token-1';

test('50 emails from the keyboard: the server hears exactly what was meant', async ({ openApp }) => {
  test.setTimeout(60_000);
  const log: AccessLogEntry[] = [];
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], onResponse: (entry) => log.push(entry) });
  try {
    const ids = new Map<string, string>();
    for (let i = 1; i <= 50; i++) {
      const subject = `Mail ${String(i).padStart(2, '0')}`;
      const [id] = await service.inject(rawMail({ subject, text: `Body ${i}` }));
      service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, 1, 0, i)) });
      ids.set(subject, id!);
    }
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, pollIntervalMs: 1000 });
    const { page } = app;
    const list = page.getByRole('listbox', { name: 'Emails' });
    const selected = list.locator('[aria-selected="true"]');
    const key = (k: string) => page.keyboard.press(k);
    await expect(list.getByRole('option')).toHaveCount(25);

    // Open the third, star it, delete it (the next one opens).
    await key('j');
    await key('j');
    await key('Enter');
    await expect(page.getByRole('heading', { name: 'Mail 48' })).toBeVisible();
    await key('s');
    await expect(selected).toContainText('★');
    await key('#');
    await expect(page.getByRole('heading', { name: 'Mail 47' })).toBeVisible();
    // Select three with x and J, delete them together, then undo that delete.
    await key('Escape');
    await key('x');
    await key('J');
    await key('J');
    await key('#');
    await expect(page.getByText('Deleted 3 emails.')).toBeVisible();
    await key('z');
    await expect(page.getByText('3 emails are back.')).toBeVisible();
    // Delete two more one by one, undo the later only.
    await key('g');
    await key('g');
    await expect(selected).toContainText('Mail 50');
    await key('#');
    await expect(selected).toContainText('Mail 49');
    await key('#');
    await key('z');
    await expect(selected).toContainText('Mail 49');
    // New mail arrives meanwhile.
    await service.inject(rawMail({ subject: 'Mail 51 (new)', text: 'New' }));
    await expect(list.getByRole('option').first()).toContainText('Mail 51', { timeout: 5000 });
    // Page turns, and j across the page edge.
    await key('n');
    await expect(page.locator('.pagination')).toContainText('26–');
    await key('p');
    await expect(page.locator('.pagination')).toContainText('1–25');
    // A search, and back.
    await key('/');
    await page.keyboard.type('Mail 1');
    await key('Enter');
    await expect(list.getByRole('option').first()).toContainText('Mail 19');
    await key('Escape');
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await key('Enter');
    await expect(list.getByRole('option').first()).toContainText('Mail 51');

    // The undo windows close; the server hears the deletes meant, and nothing else was written.
    await page.waitForTimeout(6000);
    const writes = (entries: AccessLogEntry[]) =>
      entries.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.url.replace(/^\/api\/teams\/t\//, '')}`).sort();
    expect(writes(log)).toEqual(
      [`POST emails/${ids.get('Mail 48')}/favorites`, `DELETE emails/${ids.get('Mail 48')}`, `DELETE emails/${ids.get('Mail 50')}`].sort(),
    );
    expect(log.filter((e) => e.status === 429)).toEqual([]);
    // And the list is the server's, in the server's order.
    await key('r');
    await expect.poll(async () => onScreen(page)).toEqual(service.service.team('t').page({}, 0, 25).emails.map((e) => e.subject));
  } finally {
    await service.close();
  }
});

async function onScreen(page: Page): Promise<string[]> {
  return (await page.getByRole('listbox', { name: 'Emails' }).getByRole('option').locator('.subject').allTextContents()).map((s) => s.trim());
}
