/**
 * No key holds the window (issue 43): emails whose text is one unbroken line
 * of a few hundred KB, in the scripts whose line breaking costs most (Thai's
 * dictionary breaker, bidi controls, Arabic, CJK, a base64 blob), and a
 * 100 KB header. Every key the reader takes on them is judged by the longest
 * task of the window's thread: none may pass 50 ms.
 */
import { randomBytes } from 'node:crypto';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

const LINE = 300_000;
const repeat = (unit: string) => unit.repeat(Math.ceil(LINE / unit.length)).slice(0, LINE);
const CASES: [string, string][] = [
  ['Thai, one line', repeat('สวัสดีครับยินดีต้อนรับ')],
  ['Bidi controls, one line', repeat('abc\u202Eabc\u202C123')],
  ['Arabic, one line', repeat('مرحبابكمفيالموقع')],
  ['CJK, one line', repeat('認証コードを入力してください')],
  ['Base64 blob, one line', randomBytes(LINE).toString('base64').slice(0, LINE)],
];

test.describe('one unbroken line of a few hundred KB', () => {
  let service: RunningService;
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 'l', token: 'long-lines-token' }] });
    for (const [index, [subject, text]] of CASES.entries()) {
      const [id] = await service.inject(rawMail({ subject, text }));
      service.service.team('l').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 10, 20, 0, index)) });
    }
    const header = repeat('สวัสดีครับ').slice(0, 100_000);
    const [id] = await service.inject(rawMail({ subject: 'A 100 KB header', text: 'Short body.' }).replace('\r\n\r\n', `\r\nX-Long: ${header}\r\n\r\n`));
    service.service.team('l').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 10, 20, 1)) });
  });
  test.afterAll(() => service.close());

  test('opening each, and every reader key on it, holds the window no task over 50 ms; the text is all there', async ({ openApp }) => {
    test.setTimeout(120_000);
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 'l', token: 'long-lines-token' });
    const { page } = app;
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __longTasks: number[] }).__longTasks = seen;
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => seen.push(Math.round(entry.duration)))).observe({ type: 'longtask' });
    });
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option')).toHaveCount(CASES.length + 1);
    await page.frameLocator('iframe[title="Email content"]').locator('html').waitFor({ state: 'attached' });
    await page.waitForTimeout(1000);
    const longest = async () => {
      await page.waitForTimeout(300);
      return page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks.splice(0)));
    };
    // The app's own start is not what is judged here.
    await longest();
    /** Opens the email and presses every reader key on it: the longest task of each, by step. */
    const drive = async (subject: string) => {
      const held: [string, number][] = [];
      await list.getByRole('option').filter({ hasText: subject }).click();
      await expect(page.getByRole('heading', { name: subject })).toBeVisible();
      held.push(['opening it', await longest()]);
      for (const key of ['2', '3', '4', '1', 'w', 'D', 'C', 'L', 'Space', 'End']) {
        await page.keyboard.press(key);
        held.push([key, await longest()]);
      }
      await page.keyboard.press('Escape');
      return held;
    };
    for (const subject of [...CASES.map(([s]) => s), 'A 100 KB header']) {
      let held = await drive(subject);
      // The other test worker shares the two cores: a step over the line is driven once more, and
      // judged by its second run (the 1.5 s layouts this spec was written for fail both).
      if (held.some(([, ms]) => ms > 50)) held = await drive(subject);
      for (const [step, ms] of held) expect(ms, `${subject}: ${step}`).toBeLessThanOrEqual(50);
    }
    // The text view holds the whole clipped line, to the character (the pieces join back).
    await list.getByRole('option').filter({ hasText: 'Thai, one line' }).click();
    await page.keyboard.press('2');
    // Put in piece by piece, then whole.
    await expect.poll(() => page.locator('pre.plain').evaluate((pre) => pre.textContent?.length ?? 0)).toBeGreaterThan(100_000);
    const shown = await page.locator('pre.plain').evaluate((pre) => pre.textContent ?? '');
    expect(CASES[0]![1].startsWith(shown)).toBe(true);
  });
});
