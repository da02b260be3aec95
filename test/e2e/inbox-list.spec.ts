import type { Page } from '@playwright/test';
import { startReferenceService, type AccessLogEntry, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

/** Issue 10: a dense list, one search box mapped onto the API, and mail that arrives by itself. */
const TOKEN = 'list-token-123';

/** Rows whose whole box lies inside the list's visible area. */
function visibleRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const list = document.getElementById('email-list')!.getBoundingClientRect();
    return [...document.querySelectorAll('#email-list [role="option"]')].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= list.top - 1 && box.bottom <= list.bottom + 1 && box.height > 0;
    }).length;
  });
}

test.describe('the inbox list', () => {
  let service: RunningService;
  const log: AccessLogEntry[] = [];
  test.beforeEach(async () => {
    log.length = 0;
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], onResponse: (entry) => log.push(entry) });
    for (let i = 1; i <= 40; i++) {
      const invoice = i % 10 === 0;
      const [id] = await service.inject(
        rawMail({
          subject: invoice ? `Invoice ${i}` : `Ticket ${i}`,
          from: invoice ? 'Billing <billing@vendor.test>' : `Customer ${i} <c${i}@example.test>`,
          to: i % 2 ? 'support@acme.test' : 'sales@acme.test',
          text: `Body ${i}`,
          ...(i === 20 ? { attachment: { name: 'x.pdf', type: 'application/pdf', content: 'pdf' } } : {}),
        }),
      );
      service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, i, 10)) });
    }
  });
  test.afterEach(() => service.close());

  for (const [viewport, wanted] of [[{ width: 1280, height: 800 }, 18], [{ width: 800, height: 600 }, 10]] as const) {
    test(`shows at least ${wanted} emails at ${viewport.width}×${viewport.height}`, async ({ openApp }) => {
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport });
      const list = page.getByRole('listbox', { name: 'Emails' });
      await expect(list.getByRole('option').filter({ hasText: 'Invoice 40' })).toBeVisible();
      expect(await visibleRows(page)).toBeGreaterThanOrEqual(wanted);
      // A cut-off subject can be read in full on hover.
      await expect(list.getByRole('option').first().locator('.subject')).toHaveAttribute('title', 'Invoice 40');
    });
  }

  test('each search term becomes the request main sends', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option').first()).toBeVisible();
    const search = page.getByRole('searchbox', { name: 'Search' });
    const lastQuery = () => {
      const entry = [...log].reverse().find((e) => e.url.includes('/emails?') && !e.url.includes('limit=1&'));
      return Object.fromEntries(new URL(entry!.url, 'http://x').searchParams);
    };
    const run = async (text: string, options: { results?: boolean; cached?: boolean } = {}) => {
      const before = log.length;
      await search.fill(text);
      await search.press('Enter');
      if (options.results === false) await expect(page.getByText(`No email matches “${text}”.`)).toBeVisible();
      else await expect(list).toBeFocused();
      // A page asked for in the last 5 s comes from main's cache, without a request.
      if (!options.cached) await expect.poll(() => log.length).toBeGreaterThan(before);
    };

    await run('from:billing@vendor.test');
    expect(lastQuery()).toMatchObject({ sender: 'billing@vendor.test' });
    await expect(list.getByRole('option')).toHaveCount(4);
    await run('to:support@acme.test is:unread');
    expect(lastQuery()).toMatchObject({ inbox: 'support@acme.test', unread: '1' });
    await run('subject:"Invoice *" is:starred', { results: false });
    expect(lastQuery()).toMatchObject({ subject: 'Invoice *', favorite: '1' });
    await run('after:2026-10-05 before:2026-10-08');
    const dates = lastQuery();
    expect(new Date(dates.since!).getTime()).toBe(new Date(2026, 9, 5).getTime() - 1);
    expect(new Date(dates.until!).getTime()).toBe(new Date(2026, 9, 8).getTime());
    await run('ticket 3');
    expect(lastQuery()).toMatchObject({ search: 'ticket 3' });
    await run('has:attachment', { cached: true });
    expect(log.some((entry) => entry.url.includes('has'))).toBe(false);
    await expect(list.getByRole('option')).toHaveCount(1);
    await expect(page.getByText('the server cannot filter on attachments')).toBeVisible();

    // A typo is an error in place, and nothing is sent for it.
    const sent = log.length;
    await search.fill('frm:billing');
    await expect(page.getByRole('alert').filter({ hasText: '“frm:” is not a search term' })).toBeVisible();
    await search.press('Enter');
    expect(log.length).toBe(sent);
    // Chips remove their term.
    await search.fill('ticket from:billing@vendor.test');
    await page.getByRole('button', { name: 'Remove from:billing@vendor.test' }).click();
    await expect(search).toHaveValue('ticket');
    // Esc clears; ↑ in the empty box brings back a recent search.
    await search.press('Escape');
    await expect(search).toHaveValue('');
    await search.press('ArrowUp');
    await expect(search).toHaveValue('has:attachment');
  });

  test('a partial address offers the addresses seen; an unknown inbox is an empty list, not an error', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option').first()).toBeVisible();
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('from:billing');
    const offered = page.getByRole('list', { name: 'Known addresses' });
    await expect(offered.getByRole('button')).toHaveText(['from:billing@vendor.test']);
    await offered.getByRole('button', { name: 'from:billing@vendor.test' }).click();
    await expect(search).toHaveValue('from:billing@vendor.test');
    await expect(list.getByRole('option')).toHaveCount(4);

    await search.fill('to:nobody@acme.test');
    await search.press('Enter');
    await expect(page.getByText('No mail for nobody@acme.test yet.')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('new mail slides in within one poll, and the selection and the open email stay', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, pollIntervalMs: 700 });
    const { page } = app;
    const list = page.getByRole('listbox', { name: 'Emails' });
    await list.getByRole('option').filter({ hasText: 'Ticket 38' }).click();
    await expect(page.getByRole('heading', { name: 'Ticket 38' })).toBeVisible();
    const selected = list.locator('[aria-selected="true"]');
    await expect(selected).toContainText('Ticket 38');
    const yBefore = (await selected.boundingBox())!.y;

    await service.inject(rawMail({ subject: 'Fresh arrival', from: 'New <new@example.test>', text: 'Hello' }));
    await expect(list.getByRole('option').first()).toContainText('Fresh arrival', { timeout: 3000 });
    await expect(page.getByRole('button', { name: '↑ 1 new' })).toBeVisible();
    await expect(selected).toContainText('Ticket 38');
    // The chosen row did not move on screen (issue 21), and the page is still a page.
    expect(Math.abs((await selected.boundingBox())!.y - yBefore)).toBeLessThanOrEqual(1);
    await expect(list.getByRole('option')).toHaveCount(25);
    await expect(page.locator('.pagination')).toContainText('1–25 of 41');
    await expect(page.getByRole('heading', { name: 'Ticket 38' })).toBeVisible();
    // The badge counts unread mail: 41 emails, of which Ticket 38 was read.
    await expect.poll(() => app.badgeCount).toBe(40);
    expect(app.notifications).toEqual([]); // notifications are off by default
  });
});

test.describe('polling within the rate budget', () => {
  const count = (log: AccessLogEntry[]) => log.filter((entry) => entry.url.includes('/emails?')).length;

  test('stops below the floor of 20 requests left, and never causes a 429', async ({ openApp }) => {
    const log: AccessLogEntry[] = [];
    const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], rateLimit: 24, onResponse: (entry) => log.push(entry) });
    try {
      await service.inject(rawMail({ subject: 'Only one' }));
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, pollIntervalMs: 150 });
      await expect(page.getByRole('option').filter({ hasText: 'Only one' })).toBeVisible();
      // 24 a minute: polls (a page and the unread count) go on only while 20 or more are left.
      await expect.poll(() => count(log), { timeout: 5000 }).toBeGreaterThanOrEqual(4);
      await page.waitForTimeout(1500);
      const settled = log.length;
      await page.waitForTimeout(1500);
      expect(log.length).toBe(settled);
      expect(log.filter((entry) => entry.status === 429)).toEqual([]);
      expect(24 - log.length).toBeGreaterThanOrEqual(19);
    } finally {
      await service.close();
    }
  });

  test('sends nothing while the rate budget is spent, and asks for no 429', async ({ openApp }) => {
    const log: AccessLogEntry[] = [];
    const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], rateLimit: 2, onResponse: (entry) => log.push(entry) });
    try {
      await service.inject(rawMail({ subject: 'Only one' }));
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, pollIntervalMs: 150 });
      await expect(page.getByRole('option').filter({ hasText: 'Only one' })).toBeVisible();
      // The user's own refreshes use up the window; the next one waits for it, as polling does.
      await page.keyboard.press('r');
      await page.keyboard.press('r');
      await page.keyboard.press('r');
      await expect(page.getByRole('status').filter({ hasText: 'for the server’s rate limit' })).toBeVisible();
      await page.waitForTimeout(2000);
      expect(log.length).toBe(2);
      expect(log.filter((entry) => entry.status === 429)).toEqual([]);
    } finally {
      await service.close();
    }
  });
});
