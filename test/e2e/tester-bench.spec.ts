/**
 * The tester's bench (issue 23, first tools): the verification code and the
 * main link on top of the email, each one key to the clipboard; sender checks
 * in the headers view; the email saved as .eml with its exact bytes. None of
 * it fetches anything from the email's URLs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

// Lines counted by hand: flex and rounded corners on 5, position on 10, the width attribute on 11.
const COMPAT_HTML = [
  '<!doctype html>',
  '<html>',
  '<head>',
  '<style>',
  '.card { display: flex; border-radius: 8px; }',
  '@media (prefers-color-scheme: dark) { .card { background: #111; } }',
  '</style>',
  '</head>',
  '<body>',
  '<div class="card" style="position: absolute;">Hi</div>',
  '<table width="600"><tr><td>Cell <img src="https://track.acme.test/c.gif"></td></tr></table>',
  '</body>',
  '</html>',
].join('\n');
const COMPAT = [
  'From: Acme <layout@acme.test>',
  'To: qa@inbox.test',
  'Subject: Compat check',
  'Date: Mon, 02 Nov 2026 08:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset=utf-8',
  '',
  COMPAT_HTML,
  '',
].join('\r\n');

test.describe('the tester’s bench', () => {
  let service: RunningService;
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    // In this order in the list, newest first, whatever millisecond each arrived in: Verify, Dark aware, Compat.
    for (const [minutes, raw] of [[0, COMPAT], [1, DARK_AWARE], [2, RAW]] as const) {
      const [id] = await service.inject(raw);
      service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 10, 2, 10, minutes)) });
    }
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
  test('D stays on from one email to the next: j shows the next one with its own dark rules answered, k the first again', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Dark aware' }).click();
    const content = page.frameLocator('iframe[title="Email content"]');
    await expect(content.locator('.hero')).toHaveCSS('color', 'rgb(10, 20, 30)');
    await page.keyboard.press('D');
    await expect(content.locator('.hero')).toHaveCSS('color', 'rgb(200, 210, 220)');
    // The next email (older) brings style sheets of its own: its prefers-color-scheme rule is answered as dark too.
    await page.keyboard.press('j');
    await expect(page.getByRole('heading', { name: 'Compat check', exact: true })).toBeVisible();
    await expect(content.locator('.card')).toHaveCSS('background-color', 'rgb(17, 17, 17)');
    await page.keyboard.press('k');
    await expect(content.locator('.hero')).toHaveCSS('color', 'rgb(200, 210, 220)');
    await page.keyboard.press('D');
    await expect(content.locator('.hero')).toHaveCSS('color', 'rgb(10, 20, 30)');
    await page.keyboard.press('j');
    await expect(content.locator('.card')).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
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
    // The palette lists what applies where the user is: the tools, with an email open.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    for (const [name, key] of [
      ['Copy the verification code', 'C'],
      ['Copy the main link', 'L'],
      ['Save the email as .eml', 'E'],
      ['Check the HTML’s compatibility', 'H'],
      ['Print the email', 'Ctrl+P'],
      ['Save the email as PDF', 'P'],
      ['Check every link and image', 'V'],
    ]) {
      await expect(palette.getByRole('option', { name: new RegExp(`^${name}`) }).locator('kbd')).toHaveText(key!);
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: /shortcuts/i });
    for (const [title, key] of [
      ['Save the email as .eml', 'E'],
      ['Check the HTML’s compatibility with email clients (caniemail.com)', 'H'],
      ['Print the email', 'Ctrl+P'],
      ['Save the email as PDF', 'P'],
      ['Check every link and image', 'V'],
    ]) {
      await expect(help.getByRole('row').filter({ hasText: title! }).first().locator('kbd')).toHaveText(key!);
    }
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

test.describe('the HTML compatibility check', () => {
  let service: RunningService;
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    await service.inject(COMPAT);
  });
  test.afterAll(async () => {
    await service.close();
  });

  test('H scores each client family and lists what some client lacks; Enter shows the line in the source, Esc steps back', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Compat check' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Hi')).toBeVisible();
    await page.keyboard.press('H');
    const report = page.getByRole('region', { name: 'HTML compatibility' });
    await expect(report.getByRole('status')).toContainText('not supported everywhere (caniemail.com, 26 clients)');
    const score = async (label: string) => Number((await report.getByRole('listitem').filter({ hasText: new RegExp(`\\d+% ${label}$`) }).innerText()).match(/(\d+)%/)![1]);
    expect(await score('Apple Mail')).toBeGreaterThan(await score('Outlook'));
    const flex = report.getByRole('listitem').filter({ hasText: 'display:flex' });
    await expect(flex).toContainText('missing in');
    await expect(flex).toContainText('Outlook');
    await expect(flex.getByRole('button', { name: 'line 5' })).toBeVisible();
    await expect(report.getByRole('listitem').filter({ hasText: /^not supported position/ }).getByRole('button', { name: 'line 10' })).toBeVisible();
    // The report has the keyboard: the first finding's line is focused, ↓ goes on, Enter shows the source there.
    await expect(page.locator(':focus')).toHaveText(/^line \d+$/);
    const flexLine = flex.getByRole('button', { name: 'line 5' });
    for (let i = 0; i < 20 && !(await flexLine.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const source = report.getByRole('list', { name: 'HTML source around line 5' });
    await expect(source.locator('[aria-current="location"]')).toHaveText('.card { display: flex; border-radius: 8px; }');
    // Three lines either side, numbered as in the source.
    await expect(source.locator('li').first()).toHaveText('<html>');
    await expect(source.locator('li').first()).toHaveAttribute('value', '2');
    await page.keyboard.press('Escape');
    await expect(source).toBeHidden();
    await expect(report).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(report).toBeHidden();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Hi')).toBeVisible();
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
    // Nothing of the email's was fetched: the check reads the HTML in main, the tracker stays unasked.
    expect(app.blockedRequests.filter((url) => url.includes('acme.test'))).toEqual([]);
  });
});

test.describe('printing and PDF', () => {
  let service: RunningService;
  let pixels: Server;
  let origin = '';
  const hits: string[] = [];
  test.beforeAll(async () => {
    pixels = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.writeHead(200, { 'Content-Type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
    });
    await new Promise<void>((done) => pixels.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(pixels.address() as AddressInfo).port}`;
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    await service.inject(
      [
        'From: Acme Billing <billing@acme.test>',
        'To: qa@inbox.test',
        'Subject: Invoice 2026-11',
        'Date: Mon, 02 Nov 2026 07:00:00 +0000',
        'MIME-Version: 1.0',
        'Content-Type: text/html; charset=utf-8',
        '',
        `<h1>Invoice total: 42.00 EUR</h1><img src="${origin}/pixel.gif" alt="logo"><script>document.title='ran'</script>`,
        '',
      ].join('\r\n'),
    );
  });
  test.afterAll(async () => {
    await service.close();
    pixels.close();
  });

  test('P saves the email as shown as a PDF, Ctrl+P prints it; remote images only once the user allowed them', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, passThrough: [origin] });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Invoice 2026-11' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Invoice total: 42.00 EUR')).toBeVisible();
    await page.keyboard.press('P');
    await expect(page.getByRole('status').filter({ hasText: 'Saved to' })).toContainText('Invoice 2026-11.pdf');
    const pdf = await readFile(`${app.dataDir}/Invoice 2026-11.pdf`);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    await page.keyboard.press('Control+p');
    await expect.poll(() => app.printed.length).toBe(1);
    // The header as main knows it, then the body as the reader shows it; the script was never part of it.
    expect(app.printed[0]).toContain('Invoice 2026-11');
    expect(app.printed[0]).toContain('Acme Billing <billing@acme.test>');
    expect(app.printed[0]).toContain('Invoice total: 42.00 EUR');
    expect(app.printed[0]).not.toContain('document.title');
    await expect(page.getByRole('status').filter({ hasText: 'Sent to the printer.' })).toBeVisible();
    expect(hits).toEqual([]);
    expect(app.printRequests.filter((url) => url.startsWith(origin))).toEqual([]);
    // Remote content allowed for this email: the print shows it too.
    await page.keyboard.press('i');
    await expect.poll(() => hits.length).toBeGreaterThan(0);
    const shown = hits.length;
    await page.keyboard.press('Control+p');
    await expect.poll(() => app.printed.length).toBe(2);
    expect(app.printRequests.filter((url) => url.startsWith(origin))).toEqual([`${origin}/pixel.gif`]);
    expect(hits.length).toBeGreaterThan(shown);
  });
});
