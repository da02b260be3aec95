import { startReferenceService, type AccessLogEntry, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

test.describe('triage from the keyboard', () => {
  let service: RunningService;
  test.beforeEach(async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: 'triage-token-1' }] });
    for (let i = 1; i <= 30; i++) {
      const day = String(i).padStart(2, '0');
      await service.inject(rawMail({ subject: `Ticket ${i}`, date: `${day} Oct 2026 10:00:00 +0000`, text: `Body of ticket ${i}` }));
    }
    // Seeded order is by arrival: give them distinct times so "newest first" is Ticket 30.
    for (const email of service.service.team('t').query()) {
      const n = Number(/Ticket (\d+)/.exec(email.subject)![1]);
      service.service.team('t').updateEmail(email.id, { createdAt: new Date(Date.UTC(2026, 9, n, 10)) });
    }
  });
  test.afterEach(() => service.close());

  test('moves, opens, pages, stars, filters and deletes without the mouse', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: 'triage-token-1' });
    const list = page.getByRole('listbox', { name: 'Emails' });
    const selected = list.locator('[aria-selected="true"]');
    await expect(selected).toContainText('Ticket 30');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(selected).toContainText('Ticket 28');
    await page.keyboard.press('k');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Ticket 29' })).toBeVisible();
    await expect(page.locator('pre.plain')).toContainText('Body of ticket 29');

    await page.keyboard.press('s');
    await expect(list.getByRole('option').filter({ hasText: 'Ticket 29' })).toContainText('★');
    await page.keyboard.press('f');
    await expect(list.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('f');
    await expect(list.getByRole('option')).toHaveCount(25);

    await page.keyboard.press('n');
    await expect(page.getByText('26–30 of 30')).toBeVisible();
    await page.keyboard.press('p');
    await expect(page.getByText('1–25 of 30')).toBeVisible();

    // Delete goes at once on screen and selects the neighbour; the server hears of it when Undo has passed.
    await page.keyboard.press('j');
    await expect(selected).toContainText('Ticket 29');
    await page.keyboard.press('#');
    await expect(list.getByRole('option').filter({ hasText: 'Ticket 29' })).toHaveCount(0);
    await expect(selected).toContainText('Ticket 28');
    await expect(page.getByRole('status').filter({ hasText: 'Deleted “Ticket 29”.' })).toBeVisible();
    expect(service.service.team('t').count()).toBe(30);
    await expect.poll(() => service.service.team('t').count(), { timeout: 9000 }).toBe(29);

    await page.keyboard.press('/');
    await page.keyboard.type('Ticket 1');
    await expect(list.getByRole('option')).toHaveCount(11);
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('after:2026-10-05 before:2026-10-08');
    await expect(list.getByRole('option')).toHaveCount(3);
    await expect(list).toContainText('Ticket 7');
    await expect(list).toContainText('Ticket 5');
    // Esc clears the search, a second leaves the box.
    await search.press('Escape');
    await expect(search).toHaveValue('');
    await expect(list.getByRole('option')).toHaveCount(25);
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('a spent rate budget keeps the list, the page and the selection, and says how long it waits (no 429 asked for)', async ({ openApp }) => {
    await service.close();
    const log: AccessLogEntry[] = [];
    service = await startReferenceService({ teams: [{ id: 't', token: 'triage-token-1' }], rateLimit: 6, onResponse: (entry) => log.push(entry) });
    for (let i = 1; i <= 30; i++) await service.inject(rawMail({ subject: `Ticket ${i}` }));
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: 'triage-token-1' });
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option')).toHaveCount(25);
    await page.keyboard.press('n');
    await expect(page.getByText('26–30 of 30')).toBeVisible();
    await page.keyboard.press('j');
    const before = await list.locator('[aria-selected="true"]').textContent();
    // Refresh (each one a request) until the budget is spent, and once more.
    for (let i = 0; i < 8; i++) await page.keyboard.press('r');
    const waiting = page.getByRole('status').filter({ hasText: 'for the server’s rate limit' });
    await expect(waiting).toContainText(/Waiting \d+ s for the server’s rate limit; your place is kept\./);
    await expect(page.locator('.rate').first()).toHaveText('0 of 6 requests left this minute');
    // The app held its request instead of asking for a 429; nothing failed, nothing moved.
    expect(log.filter((entry) => entry.status === 429)).toEqual([]);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(list.getByRole('option')).toHaveCount(5);
    await expect(page.getByText('26–30 of 30')).toBeVisible();
    expect(await list.locator('[aria-selected="true"]').textContent()).toBe(before);
  });
});

test.describe('the automation form', () => {
  let service: RunningService;
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: 'auto-token-1' }] });
  });
  test.afterAll(() => service.close());

  test('says what is wrong, keeps what was typed, then saves and edits', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: 'auto-token-1' });
    await expect(page.getByText('No mail here yet')).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await expect(page.getByText('No automations yet.')).toBeVisible();
    await page.keyboard.press('c');
    await expect(page.getByLabel('Title')).toBeFocused();
    await page.keyboard.type('Invoices');
    await page.getByLabel('Sender (email address)').fill('not-an-address');
    await page.getByLabel('Subject (regular expression)').fill('^Invoice (');
    await page.getByLabel('Webhook URL').fill('https://hooks.example/in');
    await page.getByRole('button', { name: /Save/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'valid email address' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'regular expression' })).toBeVisible();
    await expect(page.getByLabel('Title')).toHaveValue('Invoices');
    await expect(page.getByLabel('Webhook URL')).toHaveValue('https://hooks.example/in');

    await page.getByLabel('Sender (email address)').fill('billing@vendor.test');
    await page.getByLabel('Subject (regular expression)').fill('^Invoice');
    await page.getByLabel('Payload format').selectOption('json_with_bodies');
    await page.getByLabel('Subject (regular expression)').press('Enter');
    const row = page.getByRole('list', { name: 'Rules' }).getByRole('listitem').filter({ hasText: 'Invoices' });
    await expect(row).toContainText('from billing@vendor.test');
    await expect(row).toContainText('json_with_bodies');
    const [stored] = [...service.service.team('t').automations.values()];
    expect(stored).toMatchObject({ title: 'Invoices', sender: 'billing@vendor.test', subject: '^Invoice', payload_format: 'json_with_bodies' });

    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Title').fill('Invoices to accounting');
    await page.getByRole('button', { name: /Save/ }).click();
    await expect(page.getByRole('list', { name: 'Rules' }).getByRole('listitem').filter({ hasText: 'Invoices to accounting' })).toBeVisible();
    expect([...service.service.team('t').automations.values()][0]!.title).toBe('Invoices to accounting');
  });
});
