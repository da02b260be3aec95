/**
 * The tester's loop through the real renderer and main's handlers: N makes
 * and copies a fresh address, mail sent to it by SMTP (nodemailer, as an app
 * under test sends it) opens by itself with its code on the clipboard; the
 * global shortcut, the notification's Copy and the tray give the newest code.
 * Through the catcher, and through a remote reference service with a watched inbox.
 */
import nodemailer from 'nodemailer';
import { startReferenceService, type AccessLogEntry, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

async function smtpSend(port: number, to: string, subject: string, text: string, login = true): Promise<void> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ...(login ? { auth: { user: 'myapp', pass: 'dev' } } : {}), tls: { rejectUnauthorized: false } });
  try {
    await transport.sendMail({ from: 'MyApp <no-reply@myapp.test>', to, subject, text });
  } finally {
    transport.close();
  }
}

test.describe('the tester’s loop', () => {
  test('N on the catcher: the address is copied and watched; its first email opens by itself with its code on the clipboard', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true, settings: { addressPattern: 'qa+{random}@myapp.test' } } });
    const { page } = app;
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    await page.keyboard.press('Shift+N');
    await expect.poll(() => app.clipboard).toMatch(/^qa\+[a-z2-9]{10}@myapp\.test$/);
    const address = app.clipboard!;
    await expect(page.getByRole('status', { name: 'Watched addresses' })).toContainText(`Watching ${address}`);
    await expect(page.getByText(`${address} copied: watching it for 10 minutes`)).toBeVisible();

    // Another address's mail first: it opens nothing.
    await smtpSend(app.catcherSmtpPort()!, 'someone.else@myapp.test', 'Not for the watch', 'Your code is 111 222.');
    await smtpSend(app.catcherSmtpPort()!, address, 'Confirm your sign-up', 'Welcome to MyApp!\n\nYour verification code: 739204\n\nThe MyApp team, 10115 Berlin');
    await expect(page.getByRole('heading', { name: 'Confirm your sign-up' })).toBeVisible();
    await expect.poll(() => app.clipboard).toBe('739204');
    await expect(page.getByText(`Code 739204 copied: “Confirm your sign-up” to ${address}.`)).toBeVisible();
    await expect(page.getByRole('status', { name: 'Watched addresses' })).toHaveCount(0);
    // The tray shows the newest code, and copies it.
    expect(app.tray?.title).toBe('739204');
    expect(app.tray?.items[0]?.label).toBe('Copy 739204');
  });

  test('the global shortcut copies the newest code from anywhere; a new email’s notification carries its code and a Copy', async ({ openApp }) => {
    const app = await openApp({ demo: true, catcher: { show: true } });
    const { page } = app;
    await app.accounts.updateSettings({ notifyNewMail: true });
    await expect(page.getByRole('region', { name: 'SMTP settings for your app' })).toBeVisible();
    expect(app.globalShortcuts()).toEqual(['Control+Alt+C']);
    await smtpSend(app.catcherSmtpPort()!, 'login@inbox-desk.test', 'Your login code', 'Enter 482913 to finish signing in.');
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Your login code' })).toBeVisible();
    await expect.poll(() => app.notificationButtons.length).toBe(1);
    expect(app.notificationButtons[0]).toMatchObject({ title: 'New mail from MyApp', body: 'Your login code\nCode: 482913' });
    expect(app.notificationButtons[0]!.action?.label).toBe('Copy 482913');
    expect(app.clipboard).toBeNull();
    app.notificationButtons[0]!.action!.run();
    expect(app.clipboard).toBe('482913');
    app.clipboard = 'something the user copied since';
    expect(app.pressGlobalShortcut('Control+Alt+C')).toBe(true);
    expect(app.clipboard).toBe('482913');
    // The tray's Copy does the same.
    app.clipboard = null;
    app.tray!.items.find((item) => item.label === 'Copy 482913')!.click!();
    expect(app.clipboard).toBe('482913');
  });

  test('the shortcut is changeable in Settings, off when empty, and a taken one is said plainly', async ({ openApp }) => {
    const app = await openApp({ demo: true, takenShortcuts: ['Control+Alt+C'] });
    const { page } = app;
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const form = page.getByRole('form', { name: 'Global shortcut' });
    await expect(form.getByRole('status')).toContainText('Ctrl+Alt+C is held by another application');
    expect(app.globalShortcuts()).toEqual([]);
    const input = form.getByLabel('Copy the newest code from any app');
    await input.fill('Control+Shift');
    await expect(form.getByRole('status')).toContainText('not a key');
    await expect(form.getByRole('button', { name: 'Apply', exact: true })).toBeDisabled();
    await input.fill('Control+Shift+F9');
    await form.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(form.getByRole('status')).toContainText('On: Ctrl+Shift+F9 copies the newest email’s code from any app.');
    expect(app.globalShortcuts()).toEqual(['Control+Shift+F9']);
    await input.fill('');
    await form.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(form.getByRole('status')).toContainText('Off.');
    expect(app.globalShortcuts()).toEqual([]);
  });

  test('help and the palette offer the loop', async ({ openApp }) => {
    const { page } = await openApp({ demo: true });
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog');
    await expect(help).toContainText('New address to test with');
    await expect(help).toContainText('Copy the newest email’s code');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('newest code');
    await expect(page.getByRole('option', { name: /Copy the newest email’s code/ })).toBeVisible();
  });
});

test.describe('the tester’s loop on a remote server', () => {
  let service: RunningService;
  const log: AccessLogEntry[] = [];
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 'qa', token: 'qa-token' }], smtpPort: 0, onResponse: (entry) => log.push(entry) });
    await service.inject(rawMail({ to: 'seed@qa-mail.test', subject: 'An earlier email' }));
  });
  test.afterAll(async () => service.close());

  test('a watched inbox is asked for every 2 s: the email opens within seconds of SMTP’s 250, its code copied', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 'qa', token: 'qa-token' });
    const { page } = app;
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'An earlier email' })).toBeVisible();
    await page.keyboard.press('Shift+N');
    // The server's domain, learnt from its newest email.
    await expect.poll(() => app.clipboard).toMatch(/^[a-z2-9]{10}@qa-mail\.test$/);
    const address = app.clipboard!;
    await smtpSend(service.smtpPort!, address, 'Reset your password', 'Use this code to reset your password: QX6-9NT', false);
    const accepted = Date.now();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible({ timeout: 5000 });
    // The code as the email writes it.
    await expect.poll(() => app.clipboard).toBe('QX6-9NT');
    expect(Date.now() - accepted).toBeLessThan(3_000);
    // Only the watched inbox was asked for, and nothing since the email came.
    const watchPolls = log.filter((entry) => entry.url.includes(`inbox=${encodeURIComponent(address)}`));
    expect(watchPolls.length).toBeGreaterThan(0);
    const before = watchPolls.length;
    await page.waitForTimeout(2_500);
    expect(log.filter((entry) => entry.url.includes(`inbox=${encodeURIComponent(address)}`)).length).toBe(before);
  });

  test('the account’s own pattern wins; a server with no mail and no pattern says what to do', async ({ openApp }) => {
    const empty = await startReferenceService({ teams: [{ id: 'none', token: 'none-token' }] });
    try {
      const app = await openApp({ baseUrl: empty.baseUrl, teamId: 'none', token: 'none-token' });
      await expect.poll(() => app.calls.includes('listEmails') && app.pendingCalls() === 0).toBe(true);
      await app.page.keyboard.press('Shift+N');
      await expect(app.page.getByText('This server has no mail yet to learn its domain from')).toBeVisible();
      const id = app.accounts.activeId!;
      await app.handlers.table.saveAccount({ id, name: 'Empty', baseUrl: empty.baseUrl, teamId: 'none', addressPattern: 'signup@qa.example' });
      await app.page.keyboard.press('Shift+N');
      await expect.poll(() => app.clipboard).toMatch(/^signup\+[a-z2-9]{10}@qa\.example$/);
    } finally {
      await empty.close();
    }
  });
});
