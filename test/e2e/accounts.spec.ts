import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

const TOKEN_A = 'tok-A-7c1e0f9b2d4a6e8c';
const TOKEN_B = 'tok-B-3f5a7c9e1b2d4f6a';

test.describe('accounts, tokens and demo mode', () => {
  let a: RunningService;
  let b: RunningService;

  test.beforeAll(async () => {
    a = await startReferenceService({ teams: [{ id: 'team-a', token: TOKEN_A }] });
    b = await startReferenceService({ teams: [{ id: 'team-b', token: TOKEN_B }] });
    await a.inject(rawMail({ subject: 'Alpha news', html: '<p>alpha <a href="https://alpha.test/x">link</a></p>', text: 'alpha text' }));
    await a.inject(rawMail({ subject: 'Alpha invoice', attachment: { name: 'inv.pdf', type: 'application/pdf', content: '%PDF' }, text: 'pdf' }));
    await b.inject(rawMail({ subject: 'Bravo report', text: 'bravo text' }));
  });
  test.afterAll(async () => {
    await a.close();
    await b.close();
  });

  async function connect(page: Page, name: string, service: RunningService, team: string, token: string) {
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const form = page.getByRole('form', { name: 'Account' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Server address').fill(service.baseUrl);
    await form.getByLabel('Team id').fill(team);
    await form.getByLabel(/Access token/).fill(token);
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(form.getByRole('status')).toContainText('Connected');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Account saved.' })).toBeVisible();
  }

  test('the token never crosses the bridge during a full run', async ({ openApp }) => {
    const app = await openApp({ baseUrl: a.baseUrl, teamId: 'team-a', token: TOKEN_A });
    const { page } = app;
    // Read mail in every format, star, page through, open automations and save one.
    await expect(page.getByRole('option').filter({ hasText: 'Alpha news' })).toBeVisible();
    await page.getByRole('option').filter({ hasText: 'Alpha news' }).click();
    const body = page.frameLocator('iframe[title="Email content"]');
    await expect(body.getByText('alpha')).toBeVisible();
    // A link in the email goes to the system browser through the bridge, not into the app.
    await body.getByRole('link', { name: 'link' }).click();
    await expect.poll(() => app.openedExternally).toEqual(['https://alpha.test/x']);
    await page.keyboard.press('2');
    await expect(page.locator('pre.plain')).toContainText('alpha text');
    await page.keyboard.press('3');
    await expect(page.locator('pre.plain')).toContainText('Subject: Alpha news');
    await page.keyboard.press('s');
    await expect(page.getByRole('button', { name: /Unstar/ })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.keyboard.press('c');
    await page.getByLabel('Title').fill('Team A rule');
    await page.getByLabel('Webhook URL').fill('https://hooks.example/a');
    await page.getByRole('button', { name: /Save/ }).click();
    await expect(page.getByRole('list', { name: 'Rules' }).getByRole('listitem').filter({ hasText: 'Team A rule' })).toBeVisible();
    // A failure path too: a wrong token tested from the form.
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const form = page.getByRole('form', { name: 'Account' });
    await form.getByLabel('Server address').fill(a.baseUrl);
    await form.getByLabel('Team id').fill('team-a');
    await form.getByLabel(/Access token/).fill('definitely-wrong-token');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect(form.getByRole('alert').first()).toContainText('did not accept this token');

    expect(app.transcript.length).toBeGreaterThan(10);
    for (const entry of app.transcript) expect(entry).not.toContain(TOKEN_A);
    expect(app.transcript.join('\n')).not.toContain('definitely-wrong-token');
    expect(await page.content()).not.toContain(TOKEN_A);
    expect(await readFile(app.settingsPath, 'utf8')).not.toContain(TOKEN_A);
    expect(app.blockedRequests).toEqual([]);
  });

  test('saves an attachment where the user chose, byte for byte', async ({ openApp }) => {
    const app = await openApp({ baseUrl: a.baseUrl, teamId: 'team-a', token: TOKEN_A });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Alpha invoice' }).click();
    const attachments = page.getByRole('list', { name: 'Attachments' });
    await expect(attachments).toContainText('inv.pdf');
    await expect(attachments).toContainText('4.00B, application/pdf');
    await page.keyboard.press('a');
    await expect(page.getByRole('status').filter({ hasText: 'Saved to' })).toContainText('inv.pdf');
    expect(await readFile(`${app.dataDir}/inv.pdf`, 'utf8')).toBe('%PDF');
  });

  test('switching accounts never shows one team under another', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: a.baseUrl, teamId: 'team-a', token: TOKEN_A, name: 'Alpha' });
    await expect(page.getByRole('option').filter({ hasText: 'Alpha news' })).toBeVisible();
    await connect(page, 'Bravo', b, 'team-b', TOKEN_B);
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option')).toHaveCount(1);
    await expect(list).toContainText('Bravo report');
    await expect(list).not.toContainText('Alpha');

    await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: 'Alpha' });
    await expect(list.getByRole('option')).toHaveCount(2);
    await expect(list).not.toContainText('Bravo');
  });

  test('demo mode says so, and connecting an account replaces it', async ({ openApp }) => {
    const { page } = await openApp({ demo: true });
    const banner = page.getByRole('status').filter({ hasText: 'demo data' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('connect an account');
    await connect(page, 'Bravo', b, 'team-b', TOKEN_B);
    await expect(banner).toHaveCount(0);
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option')).toHaveCount(1);
  });

  test('a half-filled account form keeps what was typed and says what is missing', async ({ openApp }) => {
    const { page } = await openApp({ demo: true });
    await expect(page.getByRole('option').first()).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const form = page.getByRole('form', { name: 'Account' });
    await form.getByLabel('Name').fill('Half done');
    await form.getByLabel('Server address').fill('ftp://wrong.test');
    await form.getByLabel('Team id').fill('t1');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('alert').first()).toBeVisible();
    await expect(form.getByLabel('Name')).toHaveValue('Half done');
    await expect(form.getByLabel('Server address')).toHaveValue('ftp://wrong.test');
  });
});

test.describe('a system without a keyring', () => {
  let service: RunningService;
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 'k', token: 'keyring-less-token-1' }] });
  });
  test.afterAll(() => service.close());

  test('says so, and keeps the token for the session only unless allowed to store it', async ({ openApp }) => {
    const app = await openApp({ demo: true, noKeyring: true });
    const { page } = app;
    await expect(page.getByRole('option').first()).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    const form = page.getByRole('form', { name: 'Account' });
    await expect(form.getByText('This system has no keyring.')).toBeVisible();
    await form.getByLabel('Name').fill('No keyring');
    await form.getByLabel('Server address').fill(service.baseUrl);
    await form.getByLabel('Team id').fill('k');
    await form.getByLabel(/Access token/).fill('keyring-less-token-1');
    await form.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('listitem').filter({ hasText: 'No keyring' });
    await expect(row).toContainText('token kept for this session only');
    expect(await readFile(app.settingsPath, 'utf8')).not.toContain('keyring-less-token-1');
    // The typed token does not stay in the form once saved.
    await expect(form.getByLabel(/Access token/)).toHaveValue('');
    expect(await page.evaluate(() => document.documentElement.outerHTML)).not.toContain('keyring-less-token-1');

    // Ticking the box only asks: main's own dialog decides, and Cancel keeps it in memory.
    await row.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel(/Access token/).fill('keyring-less-token-1');
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => app.consentAsked).toEqual(['Store the token unencrypted?']);
    await expect(row).toContainText('token kept for this session only');
    expect(await readFile(app.settingsPath, 'utf8')).not.toContain('keyring-less-token-1');
    await expect(form.getByLabel(/Access token/)).toHaveValue('');

    app.answerConsent(true);
    await row.getByRole('button', { name: 'Edit' }).click();
    await form.getByLabel(/Access token/).fill('keyring-less-token-1');
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(row).toContainText('token stored unencrypted');
    expect(await readFile(app.settingsPath, 'utf8')).toContain('keyring-less-token-1');
  });
});
