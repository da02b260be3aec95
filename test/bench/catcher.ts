/**
 * New mail at once on This computer: from the catcher's SMTP 250 (nodemailer's
 * sendMail resolving) to the animation frame that paints the email's row, in
 * the built renderer in Debian's Chromium through the test host, against the
 * same run's frame floor (a key that changes nothing, to its frame). Prints JSON for run.ts. Needs
 * `electron-vite build` first.
 */
import { chromium, type Page } from '@playwright/test';
import nodemailer from 'nodemailer';
import { openApp } from '../e2e/host.ts';
import { chromiumPath } from '../support/browser.ts';
import { percentile } from './scale.ts';

const SAMPLES = 40;

/** Watches the list in the page: the wall-clock time of the first frame that paints a row holding `subject`. */
async function watchFor(page: Page, subject: string): Promise<void> {
  await page.evaluate((text) => {
    const w = window as unknown as { painted: number | null };
    w.painted = null;
    const check = () => {
      const rows = document.querySelectorAll('#email-list [role="option"]');
      if ([...rows].some((row) => row.textContent?.includes(text))) {
        // The frame that shows it: this callback runs just before it paints.
        w.painted = performance.timeOrigin + performance.now();
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }, subject);
}

async function paintedAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as { painted: number | null }).painted, undefined, { timeout: 20_000 });
  return (await handle.jsonValue()) as number;
}

const browser = await chromium.launch({ ...(chromiumPath ? { executablePath: chromiumPath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const app = await openApp(browser, { demo: true, catcher: { show: true } });
try {
  const { page } = app;
  await page.getByRole('region', { name: 'SMTP settings for your app' }).waitFor();
  // The app at rest: in its first second it loads what the first screen left out (the reader, the rules,
  // the settings); the first screen's own bench (first-screen.ts) measures that second.
  await page.waitForTimeout(1500);
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, requireTLS: true, auth: { user: 'bench', pass: 'bench' }, tls: { rejectUnauthorized: false }, pool: true });
  const arrival: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const subject = `Bench arrival ${i}`;
    await watchFor(page, subject);
    await transport.sendMail({ from: 'app@myapp.test', to: 'qa@inbox-desk.test', subject, text: 'Your code is 482913.' });
    const accepted = Date.now();
    arrival.push((await paintedAt(page)) - accepted);
    // The same run's baseline: a key that changes nothing, from its event to its frame (nothing paints sooner).
    await page.evaluate(() => {
      const w = window as unknown as { painted: number | null };
      w.painted = null;
      window.addEventListener('keydown', (event) => requestAnimationFrame(() => (w.painted = performance.now() - event.timeStamp)), { once: true, capture: true });
    });
    await page.keyboard.press('F9');
    floor.push(await paintedAt(page));
  }
  transport.close();
  console.log(JSON.stringify({ arrivalP50: percentile(arrival, 50), arrivalP95: percentile(arrival, 95), floorP95: percentile(floor, 95), samples: SAMPLES }));
} finally {
  await app.close();
  await browser.close();
}
