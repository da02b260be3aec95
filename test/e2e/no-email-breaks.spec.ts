import { createConnection } from 'node:net';
import { expect, test } from './fixtures.ts';

/** One message over SMTP to the demo's service, as the issue reproduced it: the bytes a client sends, answered 250. */
async function sendSmtp(port: number, raw: string): Promise<void> {
  const socket = createConnection(port, '127.0.0.1');
  let received = '';
  const waitFor = (code: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (new RegExp(`^${code}[ ]`, 'm').test(received)) {
          received = '';
          socket.off('data', onData);
          resolve();
        }
      };
      const onData = (chunk: Buffer) => {
        received += chunk.toString();
        if (/^[45]\d\d /m.test(received)) reject(new Error(received));
        check();
      };
      socket.on('data', onData);
      check();
    });
  await waitFor('220');
  for (const [line, code] of [['EHLO tester', '250'], ['MAIL FROM:<app@myapp.test>', '250'], ['RCPT TO:<qa@acme.test>', '250'], ['DATA', '354']] as const) {
    socket.write(`${line}\r\n`);
    await waitFor(code);
  }
  socket.write(`${raw.replace(/\r?\n/g, '\r\n')}\r\n.\r\n`);
  await waitFor('250');
  socket.end('QUIT\r\n');
}

test('the crafted link that blanked the window: the email shows, the list and the keys go on', async ({ openApp }) => {
  const app = await openApp({ demo: true, demoSmtp: true });
  const { page } = app;
  await expect(page.getByRole('option').first()).toBeVisible();
  const crafted = [
    'From: Sign-up <signup@myapp.test>',
    'To: qa@acme.test',
    'Subject: Confirm your address',
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Welcome!</p><a href="https://[x]/confirm"><img src="cid:x"></a>',
  ].join('\n');
  await sendSmtp(app.demoSmtpPort()!, crafted);
  await page.keyboard.press('r');
  const row = page.getByRole('option').filter({ hasText: 'Confirm your address' });
  await expect(row).toBeVisible();
  await row.click();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Confirm your address' })).toBeVisible();
  await expect(page.frameLocator('iframe[title="Email content"]').getByText('Welcome!')).toBeVisible();
  // No link the browser cannot parse is offered as the main link.
  await expect(page.getByRole('group', { name: 'Found in this email' })).toHaveCount(0);
  await expect(page.locator('[data-render-error]')).toHaveCount(0);
  // The keys answer: the next email opens, and back.
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: 'Confirm your address' })).toHaveCount(0);
  await page.keyboard.press('k');
  await expect(page.getByRole('heading', { name: 'Confirm your address' })).toBeVisible();
  await page.keyboard.press('3');
  await expect(page.locator('pre.raw')).toContainText('https://[x]/confirm');
});

test('an email the reader cannot render is a message in its place with the raw view offered; the list, the keys and the next email go on', async ({ openApp }) => {
  const app = await openApp({ demo: true });
  const { page } = app;
  await expect(page.getByRole('option').first()).toBeVisible();
  const subjects = await page.getByRole('option').locator('.subject').allTextContents();
  // Main hands the reader headers it cannot render (a bug of main's, or a server's answer that got past it).
  const openEmail = app.handlers.table.openEmail;
  let broken = true;
  app.handlers.table.openEmail = async (arg) => {
    const opened = await openEmail(arg);
    return broken ? { ...opened, body: { ...opened.body, sent: { ...opened.body.sent!, to: { not: 'text' } as never } } } : opened;
  };
  await page.keyboard.press('Enter');
  const fallback = page.locator('[data-render-error="This email"]');
  await expect(fallback).toContainText('This email could not be shown');
  await expect(fallback.getByRole('button', { name: 'Show the raw message (3)' })).toBeVisible();
  // The rest of the window is there: the list, the header, the keys.
  await expect(page.getByRole('listbox')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
  broken = false;
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: subjects[1]! })).toBeVisible();
  await expect(fallback).toHaveCount(0);
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
});

test('a reader whose code cannot load is a message in its place; the list and its keys go on', async ({ openApp }) => {
  // The reader's chunk is missing (a damaged install): it loads after the first rows, and fails.
  const { page } = await openApp({ demo: true, missingFiles: /\/assets\/MessageView-[^/]*\.js$/ });
  const list = page.getByRole('listbox', { name: 'Emails' });
  await expect(list.getByRole('option').first()).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'The reader could not be shown' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload the window' })).toBeVisible();
  const selected = list.locator('[aria-selected="true"]');
  const before = await selected.textContent();
  await page.keyboard.press('j');
  await expect(selected).not.toHaveText(before!);
  await expect(page.getByRole('heading', { name: 'Inbox Desk' })).toBeVisible();
});

