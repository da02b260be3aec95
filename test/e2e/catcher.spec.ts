import nodemailer from 'nodemailer';
import { expect, test } from './fixtures.ts';
import type { AppHandle } from './host.ts';
import { relayServer } from '../support/relay-server.ts';

/** Mail as an app under test sends it: nodemailer over STARTTLS with any login. Answers when the catcher said 250. */
async function sendFromApp(app: AppHandle, subject: string, to = 'new.user@example.test'): Promise<number> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, requireTLS: true, auth: { user: 'myapp', pass: 'dev' }, tls: { rejectUnauthorized: false } });
  await transport.sendMail({ from: 'Sign-up <signup@myapp.test>', to, subject, text: `Your code is 739204.` });
  transport.close();
  return Date.now();
}

test.describe('This computer: catching your own app’s mail', () => {
  test('an empty catcher says what to paste into the app; mail sent there is on screen at once', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    const instructions = page.getByRole('region', { name: 'SMTP settings for your app' });
    await expect(instructions).toBeVisible();
    await expect(instructions.getByRole('row').filter({ hasText: 'Host' })).toContainText('127.0.0.1');
    await expect(instructions.getByRole('row').filter({ hasText: 'Port' })).toContainText(String(app.catcherSmtpPort()));
    await expect(instructions).toContainText(`smtp://127.0.0.1:${app.catcherSmtpPort()}`);
    await instructions.getByRole('button', { name: 'Copy the port' }).click();
    await expect.poll(() => app.clipboard).toBe(String(app.catcherSmtpPort()));

    const accepted = await sendFromApp(app, 'Confirm your email address');
    const row = page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Confirm your email address' });
    await expect(row).toBeVisible();
    // New mail at once: no poll interval in between (the bench measures it; a second is far past it).
    expect(Date.now() - accepted).toBeLessThan(1_000);
  });

  test('Settings shows where it listens and what to paste, and a new port takes effect', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const section = page.getByRole('region', { name: 'This computer' });
    await expect(section.getByRole('status')).toContainText(`Catching mail on 127.0.0.1:${app.catcherSmtpPort()}`);
    await expect(section.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    // Another free port: applied, and the service listens there now.
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const free = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    await section.getByLabel('SMTP port').fill(String(free));
    await section.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(section.getByRole('status')).toContainText(`Catching mail on 127.0.0.1:${free}`);
    expect(app.catcherSmtpPort()).toBe(free);
    await sendFromApp(app, 'On the new port');
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'On the new port' })).toBeVisible();
  });

  test('with no email open, the reader pane on This computer says where tests and agents reach it, the token copied by main', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    const reader = page.getByRole('region', { name: 'Message' });
    const api = reader.getByRole('region', { name: 'API for your tests and agents' });
    const url = (app.catcher.state.api as { url: string }).url;
    await expect(api.getByRole('row').filter({ hasText: 'Mailpit API' })).toContainText(`${url}/api/v1`);
    await api.getByRole('button', { name: 'Copy the API token' }).click();
    await expect.poll(() => app.clipboard).toBe(app.catcher.apiToken()!);
    expect(await page.content()).not.toContain(app.catcher.apiToken()!);
    // An email opened takes the pane; closed, the pane says it again.
    await sendFromApp(app, 'Your code for the suite');
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option').filter({ hasText: 'Your code for the suite' })).toBeVisible();
    await list.focus();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await expect(reader.getByRole('heading', { name: 'Your code for the suite' })).toBeVisible();
    await expect(api).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(api).toBeVisible();
  });

  test('Settings gives a test suite the API: its addresses to copy, and the token copied by main, never shown', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const api = page.getByRole('region', { name: 'API for your tests and agents' });
    const url = (app.catcher.state.api as { url: string }).url;
    await expect(api.getByRole('row').filter({ hasText: 'Mailpit API' })).toContainText(`${url}/api/v1`);
    await expect(api.getByRole('row').filter({ hasText: 'MCP' })).toContainText(`${url}/mcp`);
    await api.getByRole('button', { name: 'Copy the Mailpit API' }).click();
    await expect.poll(() => app.clipboard).toBe(`${url}/api/v1`);
    await api.getByRole('button', { name: 'Copy the API token' }).click();
    const token = app.catcher.apiToken()!;
    await expect.poll(() => app.clipboard).toBe(token);
    await expect(page.getByRole('status').filter({ hasText: 'Copied the API token' })).toBeVisible();
    // The token works as a test suite would use it, and the page never held it.
    await sendFromApp(app, 'Your code for the suite');
    const latest = await fetch(`${url}/api/v1/message/latest`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await latest.json()) as { Code: { value: string } }).Code.value).toBe('739204');
    expect(await page.content()).not.toContain(token);
  });

  test('chaos set in Settings refuses mail with the code set, says so in a banner in every view, and X turns it off', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const form = page.getByRole('form', { name: 'Chaos' });
    await form.getByLabel('RCPT TO: answer code').fill('250');
    await form.getByLabel('RCPT TO: when').selectOption('percent');
    await form.getByRole('button', { name: 'Apply chaos' }).click();
    // A code that is not an error is refused in place, with why; nothing changes.
    await expect(form.getByRole('alert')).toHaveText(/RCPT TO: the code must be a 4xx or 5xx SMTP answer \(400-599\), not 250/);
    await expect(page.getByRole('status', { name: 'Chaos is on' })).toHaveCount(0);
    await form.getByLabel('RCPT TO: answer code').fill('451');
    await form.getByRole('button', { name: 'Apply chaos' }).click();
    const banner = page.getByRole('status', { name: 'Chaos is on' });
    await expect(banner).toContainText('451 at RCPT TO (100%)');
    await expect(banner.getByRole('button')).toHaveText('Turn off (X)');
    const refused = await sendFromApp(app, 'Refused by chaos').catch((error: { responseCode?: number }) => error.responseCode);
    expect(refused).toBe(451);
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await expect(banner).toBeVisible();
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option')).toHaveCount(0);
    await page.keyboard.press('X');
    await expect(banner).toHaveCount(0);
    await sendFromApp(app, 'Through again');
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Through again' })).toBeVisible();
  });

  test('F sends the open email to a real inbox: the relay set in Settings, main asks once, only the allowlist, the relay’s answer said', async ({ openApp }) => {
    const relay = await relayServer();
    try {
      const app = await openApp({ demo: true, catcher: { show: true } });
      const { page } = app;
      await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
      await page.keyboard.press('g');
      await page.keyboard.press('s');
      const form = page.getByRole('form', { name: 'Send to a real inbox' });
      await form.getByLabel('SMTP server').fill('127.0.0.1');
      await form.getByRole('textbox', { name: 'Port', exact: true }).fill(String(relay.port));
      await form.getByLabel('Security').selectOption('none');
      await form.getByLabel('User').fill('relay-user');
      await form.getByLabel(/^Password/).fill('relay-secret');
      await form.getByLabel('Who may receive').fill('not-an-address');
      await form.getByRole('button', { name: 'Save relay' }).click();
      // A half-filled form says what is wrong in place and keeps what was typed.
      await expect(form.getByRole('alert')).toHaveText('“not-an-address” is neither an address nor @domain.');
      await expect(form.getByLabel('SMTP server')).toHaveValue('127.0.0.1');
      await form.getByLabel('Who may receive').fill('me@real.test\n@team.test');
      await form.getByRole('button', { name: 'Save relay' }).click();
      await expect(form.getByText('Inbox Desk will ask you to allow 127.0.0.1 the first time.')).toBeVisible();
      await expect(form.getByLabel(/^Password/)).toHaveValue('');
      expect(await page.content()).not.toContain('relay-secret');

      await sendFromApp(app, 'Your sign-up code');
      await page.keyboard.press('g');
      await page.keyboard.press('i');
      await page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Your sign-up code' }).click();
      await page.keyboard.press('F');
      const dialog = page.getByRole('dialog', { name: 'Send to a real inbox' });
      await expect(dialog).toContainText('“Your sign-up code”, its exact bytes, through 127.0.0.1:');
      const to = dialog.getByLabel('Send to');
      await expect(to).toHaveValue('me@real.test');
      // Off the allowlist: said in the dialog, what was typed kept, nothing asked, nothing sent.
      await to.fill('me@real.test, stranger@elsewhere.test');
      await to.press('Enter');
      await expect(dialog.getByRole('alert')).toHaveText(/^Not on the allowlist: stranger@elsewhere\.test\./);
      await expect(to).toHaveValue('me@real.test, stranger@elsewhere.test');
      expect(app.consentAsked).toEqual([]);
      // Main's own dialog answered no: nothing sent.
      app.answerConsent(false);
      await to.fill('me@real.test');
      await to.press('Enter');
      await expect(dialog.getByRole('alert')).toHaveText(/^Not sent: 127\.0\.0\.1:\d+ was not allowed\.$/);
      expect(app.consentAsked).toEqual(['Send caught mail through this server?']);
      expect(relay.received).toHaveLength(0);
      app.answerConsent(true);
      await to.press('Enter');
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole('status').filter({ hasText: 'Sent to me@real.test through 127.0.0.1:' })).toContainText('250 OK queued as relay-1');
      expect(relay.received).toHaveLength(1);
      expect(app.consentAsked).toHaveLength(2);
      expect(relay.received[0]).toMatchObject({ from: 'signup@myapp.test', to: ['me@real.test'], user: 'relay-user' });
      expect(relay.received[0]!.bytes.toString()).toContain('Subject: Your sign-up code');
      // Asked once per relay.
      await page.keyboard.press('F');
      await expect(dialog.getByLabel('Send to')).toHaveValue('me@real.test');
      await dialog.getByLabel('Send to').press('Enter');
      await expect(dialog).toHaveCount(0);
      await expect.poll(() => relay.received.length).toBe(2);
      expect(app.consentAsked).toHaveLength(2);
    } finally {
      await relay.close();
    }
  });

  test('what retention prunes leaves the screen: keep 10, 15 sent, the list shows the newest 10 of 10', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true, settings: { keep: 10 } } });
    const { page } = app;
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, ignoreTLS: true, pool: true });
    for (let i = 1; i <= 15; i++) await transport.sendMail({ from: 'app@myapp.test', to: `user${i}@example.test`, subject: `Kept ${String(i).padStart(2, '0')}`, text: 'hi' });
    transport.close();
    const rows = page.getByRole('listbox', { name: 'Emails' }).getByRole('option');
    await expect(rows.filter({ hasText: 'Kept 15' })).toBeVisible();
    await expect(rows).toHaveCount(10);
    await expect(rows.filter({ hasText: 'Kept 05' })).toHaveCount(0);
    await expect(page.getByText(/^1–10 of 10/)).toBeVisible();
  });

  test('chaos set through the API shows the banner too', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    const url = (app.catcher.state.api as { url: string }).url;
    const put = await fetch(`${url}/api/v1/chaos`, { method: 'PUT', headers: { Authorization: `Bearer ${app.catcher.apiToken()}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ Sender: { ErrorCode: 421, Probability: 30 } }) });
    expect(put.status).toBe(200);
    await expect(page.getByRole('status', { name: 'Chaos is on' })).toContainText('421 at MAIL FROM (30%)');
  });

  test('its port taken: the list says why beside the banner, and once the port is free it catches by itself', async ({ openApp }) => {
    const { createServer } = await import('node:net');
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    const app = await openApp({ demo: true, catcher: { show: true, settings: { port: taken } } });
    const { page } = app;
    await expect(page.locator('#email-list')).toContainText(`Nothing to show yet: Port ${taken} on 127.0.0.1 is in use by another program`);
    await expect(page.getByRole('alert').filter({ hasText: 'Trying again' })).toBeVisible();
    await new Promise((resolve) => squatter.close(resolve));
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible({ timeout: 15_000 });
    expect(app.catcherSmtpPort()).toBe(taken);
    await sendFromApp(app, 'Caught after the port was freed');
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Caught after the port was freed' })).toBeVisible();
  });

  test('delete all empties the catcher, z brings every email back, and mail arriving meanwhile stays', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    for (const n of [1, 2, 3]) await sendFromApp(app, `Test mail ${n}`);
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option')).toHaveCount(3);
    await page.getByRole('button', { name: 'Delete all' }).click();
    await expect(list.getByRole('option')).toHaveCount(0);
    await page.keyboard.press('z');
    await expect(list.getByRole('option')).toHaveCount(3);
    // Again, and let the window pass: the server deletes what it had; a mail arriving in the window stays.
    await page.getByRole('button', { name: 'Delete all' }).click();
    await expect(list.getByRole('option')).toHaveCount(0);
    await sendFromApp(app, 'Arrived in the undo window');
    await expect(list.getByRole('option')).toHaveCount(1);
    await expect.poll(() => app.catcher.state.status).toBe('listening');
    await page.waitForTimeout(6_000);
    await page.keyboard.press('r');
    await expect(list.getByRole('option')).toHaveText([/Arrived in the undo window/]);
  });
});

for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
  test(`the pager beside Delete all is one row, its count one line, at ${viewport.width}×${viewport.height}`, async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true }, viewport });
    const { page } = app;
    await sendFromApp(app, 'One caught email');
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await expect(pager).toContainText('1–1 of 1');
    // Where its parts lay out, and the count's text on one line.
    const layout = await pager.evaluate((nav) => {
      const range = document.createRange();
      range.selectNodeContents(nav.querySelector(':scope > span')!);
      const countLines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      // One row: every part spans a common horizontal line (they are centred, so their tops differ).
      const boxes = [...nav.children].map((child) => child.getBoundingClientRect());
      const oneRow = Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom));
      return { countLines, oneRow, width: nav.getBoundingClientRect().width };
    });
    expect(layout).toMatchObject({ countLines: 1, oneRow: true });
    // The buttons keep their names for a screen reader, and say them on hover, where the words are left out.
    await expect(pager.getByRole('button', { name: /Prev/ })).toHaveAttribute('title', /Previous page/);
    await expect(pager.getByRole('button', { name: /Next/ })).toHaveAttribute('title', /Next page/);
    // The words are laid out where the list is wide, and left out (a 1 px box) where it is narrow.
    const wordWidths = await pager.locator('.pager-word').evaluateAll((words) => words.map((word) => word.getBoundingClientRect().width));
    expect(wordWidths.map((width) => width > 20)).toEqual(layout.width > 420 ? [true, true] : [false, false]);
    await expect(pager.getByRole('button', { name: 'Delete all' })).toBeVisible();
  });
}

test('one message to To, Cc and Bcc is one entry: found by any recipient, the Bcc said in the reader, deleted whole', async ({ openApp }) => {
  const app = await openApp({ demo: true, catcher: { show: true } });
  const { page } = app;
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'app@myapp.test', to: 'to@example.test', cc: 'cc@example.test', bcc: ['hidden@example.test', 'audit@example.test'], subject: 'Team invite', text: 'Join us.' });
  transport.close();
  const rows = page.getByRole('listbox', { name: 'Emails' }).getByRole('option');
  await expect(rows.filter({ hasText: 'Team invite' })).toHaveCount(1);
  await expect(page.getByText(/^1–1 of 1/)).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  const header = page.locator('.message-header');
  const field = (name: string) => header.locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(field('To')).toHaveText('to@example.test');
  await expect(field('Cc')).toHaveText('cc@example.test');
  await expect(field('Bcc')).toHaveText('hidden@example.test, audit@example.test (in the envelope, not the headers)');
  // Found by a Bcc recipient too.
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await page.keyboard.type('to:audit@example.test');
  await page.keyboard.press('Enter');
  await expect(rows.filter({ hasText: 'Team invite' })).toHaveCount(1);
  // Deleted whole: the service keeps none of its four rows once the undo window has passed.
  await rows.filter({ hasText: 'Team invite' }).click();
  await page.keyboard.press('#');
  await expect(rows).toHaveCount(0);
  const { baseUrl, token } = await app.catcher.connection();
  await expect
    .poll(async () => ((await (await fetch(`${baseUrl}/api/teams/this-computer/emails`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })).json()) as { meta: { total: number } }).meta.total, { timeout: 15_000 })
    .toBe(0);
});

test('the reader shows what the app wrote: From, To, Cc, Reply-To decoded, the Date header, and the envelope where it differs', async ({ openApp }) => {
  const app = await openApp({ demo: true, catcher: { show: true } });
  const { page } = app;
  const raw = [
    'From: =?UTF-8?Q?M=C3=BCller_Support?= <support@myapp.test>',
    'To: "Doe, Jane" <jane@example.test>, =?UTF-8?B?SsO8cmdlbg==?= <juergen@example.test>',
    'Cc: team@example.test',
    'Reply-To: noreply@myapp.test',
    'Subject: =?UTF-8?B?V2lsbGtvbW1lbiwgSsO8cmdlbg==?=',
    'Date: Tue, 24 Nov 2026 09:15:00 +0100',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Hallo!',
    '',
  ].join('\r\n');
  // Delivered to a Bcc address: the envelope names an inbox the headers do not.
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, ignoreTLS: true });
  await transport.sendMail({ envelope: { from: 'support@myapp.test', to: ['audit@example.test'] }, raw });
  transport.close();
  await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Willkommen, Jürgen' })).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  const header = page.locator('.message-header');
  await expect(header.getByRole('heading')).toHaveText('Willkommen, Jürgen');
  const field = (name: string) => header.locator('dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(field('From')).toHaveText('Müller Support <support@myapp.test>');
  await expect(field('To')).toHaveText('"Doe, Jane" <jane@example.test>, Jürgen <juergen@example.test>');
  await expect(field('Cc')).toHaveText('team@example.test');
  await expect(field('Bcc')).toHaveText('audit@example.test (in the envelope, not the headers)');
  await expect(field('Reply-To')).toHaveText('noreply@myapp.test');
  // The Date header's own time, and the arrival beside it (more than a minute apart).
  await expect(field('Date').locator('time').first()).toHaveAttribute('datetime', '2026-11-24T08:15:00.000Z');
  await expect(field('Date')).toContainText('(arrived');
  // The headers view decodes encoded words too, the bytes as sent on hover.
  await page.keyboard.press('4');
  const subject = page.getByRole('table', { name: 'Headers' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Subject' }) });
  await expect(subject.getByRole('cell')).toHaveText('Willkommen, Jürgen');
  await expect(subject.getByRole('cell')).toHaveAttribute('title', '=?UTF-8?B?V2lsbGtvbW1lbiwgSsO8cmdlbg==?=');
});
