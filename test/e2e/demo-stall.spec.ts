/**
 * Issue 19: a key in the demo app is answered within 100 ms while the worst
 * pattern the service accepts meets the worst subject it accepts, for every
 * recipient of a message, in the demo's own service (its worker thread).
 */
import nodemailer from 'nodemailer';
import { SMTP_MAX_RECIPIENTS } from '../../src/server/smtp.ts';
import { MATCH_CHARS } from '../../src/shared/domain/pattern.ts';
import { expect, test } from './fixtures.ts';

test('keys stay live in the demo while costly rules meet a burst of long-subject mail', async ({ openApp }) => {
  test.setTimeout(60_000);
  const app = await openApp({ demo: true, demoSmtp: true });
  const { page } = app;
  const list = page.getByRole('listbox', { name: 'Emails' });
  await expect(list.getByRole('option').first()).toBeVisible();
  // Rules near the program limit, made through the app's own bridge, as the form would.
  for (let i = 0; i < 8; i++) {
    const made = await page.evaluate(
      (subject) => (window as unknown as { api: { createAutomation: (a: unknown) => Promise<{ ok: boolean }> } }).api.createAutomation({ input: { title: `Costly ${subject}`, subject } }),
      `[a-z]{${480 + i}}x`,
    );
    expect(made.ok).toBe(true);
  }
  const port = app.demoSmtpPort();
  expect(port).not.toBeNull();
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: port!, secure: false, ignoreTLS: true });
  const sending = transport.sendMail({
    from: 'load@test.example',
    to: Array.from({ length: SMTP_MAX_RECIPIENTS }, (_, i) => `box${i}@acme.test`),
    subject: 'a'.repeat(MATCH_CHARS * 3),
    text: 'body',
  });
  // While it arrives and is matched: keys move the selection within 100 ms. The p90 of 20 is
  // held to that (one frame lost to a busy second core when the whole suite runs is not a stall;
  // a stalled service holds every key), and none may wait past 500 ms.
  const waits: number[] = [];
  for (let i = 0; i < 20; i++) {
    waits.push(
      await page.evaluate(async (key) => {
        const began = performance.now();
        const before = document.querySelector('[role="listbox"][aria-label="Emails"] [aria-selected="true"]')?.id;
        window.dispatchEvent(new KeyboardEvent('keydown', { key, cancelable: true }));
        for (;;) {
          await new Promise(requestAnimationFrame);
          const now = document.querySelector('[role="listbox"][aria-label="Emails"] [aria-selected="true"]')?.id;
          if (now !== before || performance.now() - began > 2000) return performance.now() - began;
        }
      }, i % 2 === 0 ? 'j' : 'k'),
    );
  }
  await sending;
  transport.close();
  const sorted = [...waits].sort((a, b) => a - b);
  expect(sorted[Math.floor(sorted.length * 0.9) - 1], `waits: ${sorted.map(Math.round).join(', ')} ms`).toBeLessThan(100);
  expect(sorted.at(-1)).toBeLessThan(500);
  // The mail did arrive: the list shows it after a refresh.
  await page.keyboard.press('r');
  await expect(list.getByRole('option').first()).toContainText('aaaa');
});
