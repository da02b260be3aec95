/**
 * Screenshots of the real renderer through the test host, on the demo corpus:
 * the inbox with an email open, the search box, the shortcuts overlay and the
 * command palette, light and dark, at
 * 1280×800 and 800×600. Run: npm run screenshots (after npm run build).
 */
import { chromiumPath } from '../support/browser.ts';
import { mkdir } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { createServer } from 'node:http';
import { startReferenceService } from '../../src/server/index.ts';
import nodemailer from 'nodemailer';
import { openApp } from './host.ts';

const out = 'docs/screenshots';
await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  ...(chromiumPath ? { executablePath: chromiumPath } : {}),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
      const app = await openApp(browser, { demo: true, viewport, colorScheme });
      const { page } = app;
      const size = `${viewport.width}x${viewport.height}`;
      const list = page.getByRole('listbox', { name: 'Emails' });
      await list.getByRole('option').filter({ hasText: 'calmer inbox' }).click();
      await page.frameLocator('iframe[title="Email content"]').getByRole('heading').first().waitFor();
      await page.locator('iframe[title="Email content"]').evaluate((frame) => new Promise((r) => (frame as HTMLIFrameElement).style.height ? r(null) : frame.addEventListener('load', () => r(null))));
      await page.screenshot({ path: `${out}/inbox-${colorScheme}-${size}.png` });
      await page.getByRole('searchbox', { name: 'Search' }).fill('from:billing is:unread frm:x');
      await page.screenshot({ path: `${out}/search-${colorScheme}-${size}.png` });
      await page.getByRole('searchbox', { name: 'Search' }).fill('');
      await page.keyboard.press('Escape');
      await page.locator('body').click({ position: { x: 2, y: viewport.height - 2 } });
      await page.keyboard.press('?');
      await page.getByRole('dialog').waitFor();
      await page.screenshot({ path: `${out}/shortcuts-${colorScheme}-${size}.png` });
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+k');
      await page.keyboard.type('sta');
      await page.getByRole('dialog', { name: 'Command palette' }).waitFor();
      await page.screenshot({ path: `${out}/palette-${colorScheme}-${size}.png` });
      await app.close();
      console.log(`${out}/*-${colorScheme}-${size}.png`);
    }
  }
  // The tester's bench: a sign-up email with a code, a link and a sender's headers, its links checked (V).
  const web = createServer((request, response) => {
    if (request.url === '/gone') return response.writeHead(404).end();
    if (request.url === '/old') return response.writeHead(301, { Location: '/verify' }).end();
    response.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const address = web.address();
  const site = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const service = await startReferenceService({ teams: [{ id: 'qa', token: 'screenshots' }] });
  await service.inject(
    [
      'Return-Path: <bounce@acme.test>',
      'Authentication-Results: mx.inbox.test; dkim=pass header.i=@acme.test; spf=pass smtp.mailfrom=acme.test; dmarc=pass header.from=acme.test',
      'From: Acme <no-reply@acme.test>',
      'To: qa@inbox.test',
      'Subject: Verify your email',
      'Date: Mon, 02 Nov 2026 10:00:00 +0000',
      'Message-ID: <verify.1@acme.test>',
      `List-Unsubscribe: <${site}/unsubscribe>`,
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      `<h2>Welcome to Acme</h2><p>Your verification code is <b>482913</b>.</p><p><a href="${site}/verify?t=abc">Confirm my email</a></p><p><a href="${site}/old">Getting started</a> · <a href="${site}/gone">Help</a></p><p><a href="${site}/unsubscribe">Unsubscribe</a></p>`,
      '',
    ].join('\r\n'),
  );
  await service.inject(
    [
      'From: Acme <news@acme.test>',
      'To: qa@inbox.test',
      'Subject: Your November newsletter',
      'Date: Mon, 02 Nov 2026 09:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<!doctype html>',
      '<html><head><style>',
      '.cards { display: flex; gap: 12px; }',
      '.card { border-radius: 8px; box-shadow: 0 1px 3px #999; padding: 12px; }',
      '@media (prefers-color-scheme: dark) { .card { background: #222; color: #eee; } }',
      '</style></head><body>',
      '<h2>This month at Acme</h2>',
      '<div class="cards"><div class="card">New dashboard</div><div class="card" style="position: relative; max-width: 280px">Faster exports</div></div>',
      '<table width="600" cellpadding="0"><tr><td style="background-image: linear-gradient(#fff, #eee)">Read more on our blog.</td></tr></table>',
      '</body></html>',
      '',
    ].join('\r\n'),
  );
  // December's newsletter, from the same template with a new banner and one card changed: compared with November's (b, then B).
  await service.inject(
    [
      'From: Acme <news@acme.test>',
      'To: qa@inbox.test',
      'Subject: Your December newsletter',
      'Date: Tue, 01 Dec 2026 09:00:00 +0000',
      'X-Template: newsletter-v2',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<!doctype html>',
      '<html lang="en"><head><style>',
      '.cards { display: flex; gap: 12px; }',
      '.card { border-radius: 8px; box-shadow: 0 1px 3px #999; padding: 12px; }',
      '@media (prefers-color-scheme: dark) { .card { background: #222; color: #eee; } }',
      '</style></head><body>',
      '<h2 style="background:#0b7a4b;color:#fff;padding:8px">This month at Acme</h2>',
      '<div class="cards"><div class="card">New dashboard</div><div class="card" style="position: relative; max-width: 280px">Scheduled exports</div></div>',
      '<table width="600" cellpadding="0"><tr><td style="background-image: linear-gradient(#fff, #eee)">Read more on our blog.</td></tr></table>',
      '</body></html>',
      '',
    ].join('\r\n'),
  );
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
        const app = await openApp(browser, { baseUrl: service.baseUrl, teamId: 'qa', token: 'screenshots', viewport, colorScheme, consent: true });
        const { page } = app;
        const size = `${viewport.width}x${viewport.height}`;
        await page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Verify your email' }).click();
        await page.getByRole('group', { name: 'Found in this email' }).waitFor();
        await page.keyboard.press('V');
        await page.getByRole('region', { name: 'Link check' }).getByText(/checked:/).waitFor();
        await page.keyboard.press('4');
        await page.getByRole('table', { name: 'Sender checks' }).waitFor();
        await page.screenshot({ path: `${out}/bench-${colorScheme}-${size}.png` });
        // The HTML compatibility check (H) on a layout email, its first finding's line shown in the source.
        await page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Your November newsletter' }).click();
        await page.frameLocator('iframe[title="Email content"]').getByText('This month at Acme').waitFor();
        await page.keyboard.press('H');
        await page.getByRole('region', { name: 'HTML compatibility' }).getByRole('status').filter({ hasText: 'not supported everywhere' }).waitFor();
        await page.keyboard.press('Enter');
        await page.getByRole('list', { name: /HTML source around line/ }).waitFor();
        await page.screenshot({ path: `${out}/compat-${colorScheme}-${size}.png` });
        // The same email as a phone in a client's dark mode (w, D), then printed (Ctrl+P): the page main prints, as Chromium renders it.
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        await page.keyboard.press('w');
        await page.keyboard.press('D');
        await page.getByRole('status').filter({ hasText: 'Previewing as a phone' }).waitFor();
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${out}/preview-${colorScheme}-${size}.png` });
        await page.keyboard.press('Control+p');
        await page.getByRole('status').filter({ hasText: 'Sent to the printer.' }).waitFor();
        if (colorScheme === 'light' && size === '1280x800') {
          const paper = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 794, height: 600 } });
          const sheet = await paper.newPage();
          await sheet.setContent(app.printedDocuments.at(-1)!, { waitUntil: 'load' });
          await sheet.emulateMedia({ media: 'print' });
          await sheet.screenshot({ path: `${out}/print.png` });
          await paper.close();
        }
        // Accessibility (A) on the newsletter, its first problem's line shown in the source.
        await page.keyboard.press('w');
        await page.keyboard.press('w');
        await page.keyboard.press('D');
        await page.keyboard.press('A');
        await page.getByRole('region', { name: 'Accessibility' }).getByRole('status').filter({ hasText: 'accessibility problem' }).waitFor();
        await page.keyboard.press('Enter');
        await page.getByRole('list', { name: /HTML source around line/ }).waitFor();
        await page.screenshot({ path: `${out}/a11y-${colorScheme}-${size}.png` });
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        // November picked by hand (b), December compared with it (B).
        await page.keyboard.press('b');
        await page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Your December newsletter' }).click();
        await page.frameLocator('iframe[title="Email content"]').getByText('Scheduled exports').waitFor();
        await page.keyboard.press('B');
        await page.getByRole('region', { name: 'Compared with the previous one' }).getByRole('status').filter({ hasText: 'Compared with' }).waitFor();
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${out}/compare-${colorScheme}-${size}.png` });
        await app.close();
        console.log(`${out}/bench-${colorScheme}-${size}.png`, `${out}/compat-${colorScheme}-${size}.png`, `${out}/preview-${colorScheme}-${size}.png`, `${out}/a11y-${colorScheme}-${size}.png`, `${out}/compare-${colorScheme}-${size}.png`);
      }
    }
  } finally {
    await service.close();
    web.closeAllConnections();
    web.close();
  }
  // The tester's loop on This computer: N, the sign-up mail caught and opened with its code copied, and a second address watched.
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
      const app = await openApp(browser, { demo: true, viewport, colorScheme, catcher: { show: true, settings: { addressPattern: 'qa+{random}@myapp.test' } } });
      const { page } = app;
      const size = `${viewport.width}x${viewport.height}`;
      await page.getByRole('region', { name: 'SMTP settings for your app' }).waitFor();
      if (colorScheme === 'light' && size === '1280x800') await page.screenshot({ path: `${out}/catcher-empty-light-1280x800.png` });
      await page.keyboard.press('Shift+N');
      await page.getByRole('status', { name: 'Watched addresses' }).waitFor();
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, tls: { rejectUnauthorized: false } });
      await transport.sendMail({
        from: 'MyApp <no-reply@myapp.test>',
        to: app.clipboard!,
        subject: 'Confirm your MyApp account',
        text: 'Welcome to MyApp!\n\nYour verification code is 739204.\n\nIt expires in 10 minutes.',
        html: '<div style="font-family:sans-serif;max-width:480px"><h1>Welcome to MyApp</h1><p>Your verification code is</p><p style="font-size:28px;letter-spacing:4px"><b>739204</b></p><p>It expires in 10 minutes. Or <a href="https://myapp.test/confirm?t=abc">confirm your address</a>.</p></div>',
      });
      transport.close();
      await page.getByRole('heading', { name: 'Confirm your MyApp account' }).waitFor();
      await page.keyboard.press('Shift+N');
      await page.getByRole('status', { name: 'Watched addresses' }).waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${out}/loop-${colorScheme}-${size}.png` });
      // Settings -> This computer: what a test suite or an agent is given.
      await page.keyboard.press('Escape');
      await page.keyboard.press('g');
      await page.keyboard.press('s');
      const api = page.getByRole('region', { name: 'API for your tests and agents' });
      await api.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${out}/catcher-api-${colorScheme}-${size}.png` });
      await app.close();
      console.log(`${out}/loop-${colorScheme}-${size}.png`);
    }
  }
} finally {
  await browser.close();
}
