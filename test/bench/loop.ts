/**
 * The tester's loop, end to end: N pressed in the built renderer (Debian's
 * Chromium, through the test host), the fresh address read off the
 * clipboard, a sign-up email with a code sent to it by nodemailer, and the
 * time from SMTP's 250 (sendMail resolving) to the code on the clipboard.
 * On This computer (the catcher says when mail arrives) and on a remote
 * reference service (a watched inbox asked for every 2 s, within its rate
 * limit). Prints JSON for run.ts. Needs `electron-vite build` first.
 */
import { chromium } from '@playwright/test';
import nodemailer from 'nodemailer';
import { openApp, type AppHandle } from '../e2e/host.ts';
import { startReferenceService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { chromiumPath } from '../support/browser.ts';
import { percentile } from './scale.ts';

const CATCHER_SAMPLES = 20;
const REMOTE_SAMPLES = 8;
const REMOTE_PACE_MS = 8_000;

/** Every write to the app's clipboard, with its time. */
function recordClipboard(app: AppHandle): { text: string | null; at: number }[] {
  const writes: { text: string | null; at: number }[] = [];
  let value: string | null = null;
  Object.defineProperty(app, 'clipboard', {
    get: () => value,
    set: (text: string | null) => {
      value = text;
      writes.push({ text, at: Date.now() });
    },
  });
  return writes;
}

async function until<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const began = Date.now();
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() - began > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** One turn of the loop: N, the address copied, mail to it, the code copied. Answers ms from SMTP 250 to the code on the clipboard. */
async function turn(app: AppHandle, writes: { text: string | null; at: number }[], send: (to: string, code: string) => Promise<void>, n: number): Promise<number> {
  const seen = writes.length;
  await app.page.keyboard.press('Shift+N');
  const address = await until(() => writes.slice(seen).find((w) => w.text?.includes('@'))?.text ?? undefined);
  const code = String(400000 + n * 7919).slice(0, 6);
  await send(address, code);
  const accepted = Date.now();
  const copied = await until(() => writes.slice(seen).find((w) => w.text === code)).catch((error: unknown) => {
    console.error(`turn ${n}: ${address}; calls ${app.calls.slice(-8).join(' ')}; ${app.transcript.filter((l) => l.includes('rateLimit')).slice(-2).join(' ')}`);
    throw error;
  });
  // The email opened by itself (its subject in the reader) before the next turn.
  await app.page.getByRole('heading', { name: `Confirm your account ${n}` }).waitFor();
  return copied.at - accepted;
}

const mailText = (code: string) => `Welcome!\n\nYour verification code is ${code}.\n\nIt expires in 10 minutes.`;
const browser = await chromium.launch({ ...(chromiumPath ? { executablePath: chromiumPath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const result: Record<string, number> = {};
try {
  // This computer.
  const app = await openApp(browser, { demo: true, catcher: { show: true } });
  try {
    const writes = recordClipboard(app);
    await app.page.getByRole('region', { name: 'SMTP settings for your app' }).waitFor();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, requireTLS: true, auth: { user: 'bench', pass: 'bench' }, tls: { rejectUnauthorized: false }, pool: true });
    const times: number[] = [];
    for (let n = 0; n < CATCHER_SAMPLES; n++) {
      times.push(await turn(app, writes, async (to, code) => void (await transport.sendMail({ from: 'MyApp <no-reply@myapp.test>', to, subject: `Confirm your account ${n}`, text: mailText(code) })), n));
    }
    transport.close();
    result.catcherP50 = percentile(times, 50);
    result.catcherP95 = percentile(times, 95);
  } finally {
    await app.close();
  }

  // A remote reference service: the watched inbox polled every 2 s, under a 60-a-minute limit.
  const service = await startReferenceService({ teams: [{ id: 'bench', token: 'bench-token' }], smtpPort: 0, rateLimit: 60 });
  let statuses429 = 0;
  try {
    await service.inject(rawMail({ to: 'seed@bench-mail.test', subject: 'An earlier email' }));
    const remote = await openApp(browser, { baseUrl: service.baseUrl, teamId: 'bench', token: 'bench-token' });
    remote.transcript.length = 0;
    try {
      const writes = recordClipboard(remote);
      await remote.page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first().waitFor();
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.smtpPort!, secure: false, tls: { rejectUnauthorized: false }, pool: true });
      const times: number[] = [];
      for (let n = 0; n < REMOTE_SAMPLES; n++) {
        // A tester's pace: an address, the app under test's form, then the next one some seconds later.
        await new Promise((resolve) => setTimeout(resolve, REMOTE_PACE_MS));
        times.push(await turn(remote, writes, async (to, code) => void (await transport.sendMail({ from: 'MyApp <no-reply@myapp.test>', to, subject: `Confirm your account ${n}`, text: mailText(code) })), n));
      }
      transport.close();
      statuses429 = remote.transcript.filter((line) => line.includes('"rate-limited"')).length;
      result.remoteP50 = percentile(times, 50);
      result.remoteP95 = percentile(times, 95);
    } finally {
      await remote.close();
    }
  } finally {
    await service.close();
  }
  result.remote429 = statuses429;
  console.log(JSON.stringify({ ...result, catcherSamples: CATCHER_SAMPLES, remoteSamples: REMOTE_SAMPLES }));
} finally {
  await browser.close();
}
