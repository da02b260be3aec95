import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

test.describe('smoke: the app through the test host', () => {
  test('demo mode opens a working inbox and says it is a demo', async ({ openApp }) => {
    const { page, blockedRequests } = await openApp({ demo: true });
    await expect(page.getByRole('status').filter({ hasText: 'demo data' })).toBeVisible();
    const list = page.getByRole('listbox', { name: 'Emails' });
    // The first row is the newest demo message, fetched by main's real handlers.
    await expect(list.getByRole('option').first()).toContainText('Follow-up #6: meeting notes');
    await expect(list.getByRole('option')).toHaveCount(25);
    await expect(page.getByText('1–25 of 41')).toBeVisible();
    expect(blockedRequests).toEqual([]);
  });

  test.describe('against a server of its own', () => {
    let service: RunningService;
    test.beforeAll(async () => {
      service = await startReferenceService({ teams: [{ id: 'team-x', token: 'token-x-123456' }] });
      await service.inject(rawMail({ subject: 'Only on this server', text: 'Hello from team X' }));
    });
    test.afterAll(() => service.close());

    test('lists, opens and reads an email with the keyboard', async ({ openApp }) => {
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 'team-x', token: 'token-x-123456' });
      await expect(page.getByRole('status').filter({ hasText: 'demo data' })).toHaveCount(0);
      const row = page.getByRole('option').filter({ hasText: 'Only on this server' });
      await expect(row).toBeVisible();
      await expect(row).toHaveClass(/unread/);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Only on this server' })).toBeVisible();
      await expect(page.locator('pre.plain')).toContainText('Hello from team X');
      await expect(row).not.toHaveClass(/unread/);
    });
  });
});

test.describe('desktop behaviour', () => {
  test('typing ? in the search field types a ?, and opens no overlay', async ({ openApp }) => {
    const { page } = await openApp({ demo: true });
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await expect(search).toBeFocused();
    await page.keyboard.type('why? j k');
    await expect(search).toHaveValue('why? j k');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Outside a field, ? is the shortcut list.
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog')).toBeVisible();
  });

  test('a downloaded update is announced and installed only when the user says so', async ({ openApp }) => {
    const app = await openApp({ demo: true });
    const { page } = app;
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
    app.emit('updateStatus', { state: 'downloading', version: '0.2.0' });
    app.emit('updateStatus', { state: 'failed', retryAt: Date.now() });
    await expect(page.getByRole('status').filter({ hasText: 'restart to update' })).toHaveCount(0);
    app.emit('updateStatus', { state: 'ready', version: '0.2.0' });
    const banner = page.getByRole('status').filter({ hasText: 'Version 0.2.0 is ready: restart to update.' });
    await expect(banner).toBeVisible();
    expect(app.installUpdateCalls).toBe(0);
    await banner.getByRole('button', { name: 'Restart now' }).click();
    await expect.poll(() => app.installUpdateCalls).toBe(1);
  });
});
