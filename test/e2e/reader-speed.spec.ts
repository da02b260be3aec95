import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

/** Issue 11: the next email with the reader open is fetched ahead, opens in one update, in the same frame. */
const TOKEN = 'reader-speed-token';
let service: RunningService;

test.beforeEach(async () => {
  service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  for (let i = 1; i <= 5; i++) {
    const [id] = await service.inject(rawMail({ subject: `Letter ${i}`, html: `<h1>Body of letter ${i}</h1><p>${'Some words. '.repeat(40)}</p>` }));
    service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, i, 10)) });
  }
});
test.afterEach(() => service.close());

test('opening an email is one call; the next one, fetched ahead, needs none for its body and keeps the frame', async ({ openApp }) => {
  const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
  const { page, calls } = app;
  const frame = page.frameLocator('iframe[title="Email content"]');
  await expect(page.getByRole('listbox', { name: 'Emails' }).locator('[aria-selected="true"]')).toContainText('Letter 5');

  calls.length = 0;
  await page.keyboard.press('Enter');
  await expect(frame.getByRole('heading', { name: 'Body of letter 5' })).toBeVisible();
  // One call opened it; what follows is fetching its neighbour ahead.
  expect(calls[0]).toBe('openEmail');
  expect(calls.filter((c) => c === 'openEmail' || c === 'getEmail')).toEqual(['openEmail']);
  await expect.poll(() => calls.includes('getEmailBody')).toBe(true);

  await page.evaluate(() => {
    (window as unknown as { openedFrame: Element | null }).openedFrame = document.querySelector('iframe[title="Email content"]');
  });
  calls.length = 0;
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: 'Letter 4', exact: true })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Body of letter 4' })).toBeVisible();
  expect(calls).not.toContain('openEmail');
  // Its body came ahead of time: the only call about it marks it read, as the server's JSON read does.
  expect(calls.filter((c) => c !== 'getEmailBody')).toEqual(['getEmail']);
  expect(await page.evaluate(() => document.querySelector('iframe[title="Email content"]') === (window as unknown as { openedFrame: Element }).openedFrame)).toBe(true);
  await expect.poll(() => service.service.team('t').query().find((e) => e.subject === 'Letter 4')!.read).not.toBeNull();

  // Back up with k: the previous email was kept too, and it is already read: no call at all for it.
  calls.length = 0;
  await page.keyboard.press('k');
  await expect(frame.getByRole('heading', { name: 'Body of letter 5' })).toBeVisible();
  expect(calls.filter((c) => c === 'openEmail' || c === 'getEmail')).toEqual([]);
});

test('a long email opened from the list fills the frame the closed reader kept, and Enter on it again fetches and lays out nothing', async ({ openApp }) => {
  // Past the size sanitized at once: its body is sanitized in a task of its own after the header paints.
  const [id] = await service.inject(rawMail({ subject: 'Long letter', html: `<h1>Long body</h1>${'<p>A long paragraph of a long letter. </p>'.repeat(1500)}` }));
  service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, 9, 10)) });
  const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
  const { page, calls } = app;
  await expect(page.getByRole('listbox', { name: 'Emails' }).locator('[aria-selected="true"]')).toContainText('Long letter');
  // The reader loads once the rows are painted, and its frame with it, before any Enter.
  await expect(page.locator('iframe[title="Email content"]')).toHaveCount(1);
  await page.evaluate(() => {
    const w = window as unknown as { framesMade: number };
    w.framesMade = 0;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (node instanceof Element && (node.matches('iframe') || node.querySelector('iframe'))) w.framesMade++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  const framesMade = () => page.evaluate(() => (window as unknown as { framesMade: number }).framesMade);

  await page.keyboard.press('Enter');
  const frame = page.frameLocator('iframe[title="Email content"]');
  await expect(frame.getByRole('heading', { name: 'Long body' })).toBeVisible();
  await expect(frame.locator('p')).toHaveCount(1500);
  // No frame was made: the closed reader kept its own, loaded and hidden.
  expect(await framesMade()).toBe(0);

  // Enter again on the email already open: no call, no new frame, the same body.
  await expect.poll(() => calls.includes('getEmailBody')).toBe(true);
  calls.length = 0;
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  expect(calls).toEqual([]);
  expect(await framesMade()).toBe(0);
  await expect(frame.locator('p')).toHaveCount(1500);
});
