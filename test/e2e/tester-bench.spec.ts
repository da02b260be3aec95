/**
 * The tester's bench (issue 23, first tools): the verification code and the
 * main link on top of the email, each one key to the clipboard; sender checks
 * in the headers view; the email saved as .eml with its exact bytes. None of
 * it fetches anything from the email's URLs.
 */
import { readFile } from 'node:fs/promises';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { expect, test } from './fixtures.ts';

const TOKEN = 'bench-tools-1';
const RAW = [
  'Return-Path: <bounce@acme.test>',
  'Authentication-Results: mx.inbox.test; dkim=pass header.i=@acme.test; spf=softfail smtp.mailfrom=acme.test; dmarc=pass header.from=acme.test',
  'From: Acme <no-reply@acme.test>',
  'To: qa@inbox.test',
  'Subject: Verify your email',
  'Date: Mon, 02 Nov 2026 10:00:00 +0000',
  'Message-ID: <verify.1@acme.test>',
  'List-Unsubscribe: <https://acme.test/u/1>',
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Welcome! Your verification code is <b>482913</b>.</p><p><a href="https://acme.test/verify?t=abc">Confirm my email</a></p><p><a href="https://acme.test/unsubscribe">Unsubscribe</a></p><img src="https://track.acme.test/open.gif">',
  '',
].join('\r\n');

const DARK_AWARE = [
  'From: Acme <news@acme.test>',
  'To: qa@inbox.test',
  'Subject: Dark aware',
  'Date: Mon, 02 Nov 2026 09:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<style>.hero { color: rgb(10, 20, 30) } @media (prefers-color-scheme: dark) { .hero { color: rgb(200, 210, 220) } }</style><table width="600"><tr><td><p class="hero">Fits a phone?</p></td></tr></table>',
  '',
].join('\r\n');

test.describe('the tester’s bench', () => {
  let service: RunningService;
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    await service.inject(DARK_AWARE);
    await service.inject(RAW);
  });

  test('w cycles the frame through a phone’s and a tablet’s width, D shows the email as a client in dark mode, nothing fetched again', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Dark aware' }).click();
    const frameElement = page.locator('iframe[title="Email content"]');
    const hero = page.frameLocator('iframe[title="Email content"]').locator('.hero');
    await expect(hero).toHaveCSS('color', 'rgb(10, 20, 30)');
    const requestsBefore = app.calls.length;
    await page.keyboard.press('w');
    await expect.poll(async () => (await frameElement.boundingBox())!.width).toBe(375);
    await expect(page.getByRole('status').filter({ hasText: 'Previewing as a phone (375 px)' })).toBeVisible();
    await page.keyboard.press('w');
    await expect.poll(async () => (await frameElement.boundingBox())!.width).toBe(768);
    await page.keyboard.press('D');
    await expect(hero).toHaveCSS('color', 'rgb(200, 210, 220)');
    await page.keyboard.press('w');
    await page.keyboard.press('D');
    await expect(hero).toHaveCSS('color', 'rgb(10, 20, 30)');
    await expect(page.getByRole('status').filter({ hasText: 'Previewing as' })).toHaveCount(0);
    // Widths and dark mode cost no call to main, let alone a fetch.
    expect(app.calls.slice(requestsBefore).filter((c) => c !== 'watchList')).toEqual([]);
  });
  test.afterAll(() => service.close());

  test('code and link on top, C and L copy them, 4 shows sender checks, E saves the .eml byte for byte', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Verify your email' }).click();
    const found = page.getByRole('group', { name: 'Found in this email' });
    await expect(found).toContainText('Code 482913');
    await expect(found).toContainText('Link “Confirm my email”');
    await page.keyboard.press('C');
    await expect.poll(() => app.clipboard).toBe('482913');
    await expect(page.getByText('Copied the code 482913.')).toBeVisible();
    await page.keyboard.press('L');
    await expect.poll(() => app.clipboard).toBe('https://acme.test/verify?t=abc');

    await page.keyboard.press('4');
    const checks = page.getByRole('table', { name: 'Sender checks' });
    const verdict = (name: string) => checks.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) }).locator('.verdict');
    await expect(verdict('DKIM')).toHaveText('pass');
    await expect(verdict('SPF')).toHaveText('fail');
    await expect(verdict('DMARC')).toHaveText('pass');
    await expect(verdict('One-click unsubscribe (RFC 8058)')).toHaveText('warn');
    await expect(verdict('Text part')).toHaveText('warn');

    await page.keyboard.press('E');
    await expect(page.getByText(/Saved to .*Verify your email\.eml/)).toBeVisible();
    const saved = await readFile(`${app.dataDir}/Verify your email.eml`);
    expect(saved.equals(Buffer.from(RAW))).toBe(true);
    // Nothing of the email's was fetched by any of it (the pixel stays blocked until i).
    expect(app.blockedRequests).toEqual([]);
  });

  test('the palette and the help list the new keys', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    for (const [name, key] of [['Copy the verification code', 'C'], ['Copy the main link', 'L'], ['Save the email as .eml', 'E']]) {
      await expect(palette.getByRole('option', { name: new RegExp(`^${name}`) }).locator('kbd')).toHaveText(key!);
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: /shortcuts/i })).toContainText('Save the email as .eml');
  });
});

test('V checks every link and image from main, on request only: statuses, redirects, time, broken first, no token sent', async ({ openApp }) => {
  test.setTimeout(45_000);
  const { createServer } = await import('node:http');
  const seen: { method: string; url: string; authorization?: string }[] = [];
  const web = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization });
    const path = request.url ?? '';
    if (path === '/ok' || path === '/img.png') return response.writeHead(200).end('ok');
    if (path === '/moved') return response.writeHead(301, { Location: '/ok' }).end();
    if (path === '/gone') return response.writeHead(404).end();
    if (path === '/head-refused') return response.writeHead(request.method === 'HEAD' ? 405 : 200).end();
    // /slow: never answers within the check's timeout.
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const address = web.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  try {
    const html = ['ok', 'moved', 'gone', 'head-refused', 'slow'].map((p) => `<p><a href="${base}/${p}">${p}</a></p>`).join('') + `<img src="${base}/img.png">`;
    await service.inject(['From: QA <qa@acme.test>', 'To: qa@inbox.test', 'Subject: Links to check', 'Date: Mon, 02 Nov 2026 08:00:00 +0000', 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8', '', html, ''].join('\r\n'));
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, consent: true });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Links to check' }).click();
    await expect(page.getByRole('heading', { name: 'Links to check' })).toBeVisible();
    await page.waitForTimeout(800);
    // Opening the email asked the web for nothing.
    expect(seen).toEqual([]);
    await page.keyboard.press('V');
    const report = page.getByRole('region', { name: 'Link check' });
    await expect(report.getByRole('status')).toHaveText('6 checked: 2 broken.', { timeout: 20_000 });
    const rows = await report.locator('tr').allTextContents();
    // Broken first (in the email's order), then the redirect, then the good ones.
    expect(rows[0]).toContain('404');
    expect(rows[0]).toContain(`${base}/gone`);
    expect(rows[1]).toContain('No answer within 8 s.');
    expect(rows[2]).toContain('301 → /ok');
    expect(rows.slice(3).every((r) => r.includes('200'))).toBe(true);
    // HEAD first, GET where HEAD was refused; never the account's token; consent asked once for the origin.
    expect(seen.filter((r) => r.url === '/head-refused').map((r) => r.method)).toEqual(['HEAD', 'GET']);
    expect(seen.every((r) => r.authorization === undefined)).toBe(true);
    expect(app.consentAsked).toEqual(['Check links on this machine or your network?']);
  } finally {
    await service.close();
    web.closeAllConnections();
    await new Promise<void>((resolve) => web.close(() => resolve()));
  }
});
