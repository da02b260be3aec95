import { signPayload, startReferenceService, type RunningService } from '../../src/server/index.ts';
import { runAutomations } from '../../src/server/webhooks.ts';
import { EMPTY_PAGE, sendJson, stubServer } from '../support/stub-server.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

/** Issue 12 (part): see what a rule catches before it is saved. */
const TOKEN = 'bench-token-1';

test.describe('the automation workbench', () => {
  let service: RunningService;
  test.beforeEach(async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    const mails = [
      { subject: 'Invoice 1001', from: 'Billing <billing@vendor.test>', to: 'billing@acme.test' },
      { subject: 'Invoice 1002', from: 'Billing <billing@vendor.test>', to: 'billing@acme.test' },
      { subject: 'Re: Invoice 1001', from: 'Ann <ann@acme.test>', to: 'billing@acme.test' },
      { subject: 'Lunch?', from: 'Bob <bob@example.test>', to: 'team@acme.test' },
      { subject: 'Weekly report', from: 'Bot <bot@example.test>', to: 'team@acme.test' },
    ];
    for (const [i, mail] of mails.entries()) {
      const [id] = await service.inject(rawMail({ ...mail, text: 'x' }));
      service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, i + 1, 10)) });
    }
  });
  test.afterEach(() => service.close());


  test('the preview follows each change, with the service’s own matching, and points at a pattern’s error', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await expect(page.getByRole('option').filter({ hasText: 'Invoice 1001' }).first()).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.keyboard.press('c');
    const preview = page.getByRole('region', { name: 'What this rule catches' });
    await expect(preview.getByRole('heading')).toHaveText('Matches 5 of the last 5 emails');
    const subject = page.getByLabel('Subject (regular expression)');
    await subject.fill('^Invoice');
    await expect(preview.getByRole('heading')).toHaveText('Matches 2 of the last 5 emails');
    const shown = async () => (await preview.locator('li .subject').allTextContents()).sort();
    // Worked out by hand from the five subjects above.
    expect(await shown()).toEqual(['Invoice 1001', 'Invoice 1002']);
    await expect(preview.locator('li').first().locator('mark')).toHaveText('subject');
    await subject.fill('invoice 100[12]');
    await expect(preview.getByRole('heading')).toHaveText('Matches 3 of the last 5 emails');
    expect(await shown()).toEqual(['Invoice 1001', 'Invoice 1002', 'Re: Invoice 1001']);

    await subject.fill('^Invoice (');
    const check = page.getByRole('alert').filter({ hasText: 'never closed' });
    await expect(check).toBeVisible();
    await expect(check.locator('mark')).toHaveText('(');
    await subject.fill('(a+)+$');
    await expect(page.getByRole('status').filter({ hasText: 'repeat inside a repeated group' })).toBeVisible();
  });

  test('a rule that deletes everything it matches, and matches everything, asks first', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await expect(page.getByRole('option').filter({ hasText: 'Lunch?' })).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.keyboard.press('c');
    await page.getByLabel('Title').fill('Clean up');
    await page.getByLabel('Webhook URL').fill('https://hooks.example.test/x');
    await page.getByRole('checkbox', { name: /Delete the email/ }).check();
    await expect(page.getByRole('region', { name: 'What this rule catches' }).getByRole('heading')).toHaveText('Matches 5 of the last 5 emails');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: /Save/ }).click();
    await expect.poll(() => asked).toEqual([expect.stringContaining('“Clean up” deletes the mail it matches, and it matches every incoming email')]);
    expect(service.service.team('t').automations.size).toBe(0);
    // Narrowed to a few, it saves without a question.
    await page.getByLabel('Subject (regular expression)').fill('^Lunch');
    // Saved once the preview says so (under load, a Save before it still sees every email matched, and asks).
    await expect(page.getByRole('region', { name: 'What this rule catches' }).getByRole('heading')).toHaveText('Matches 1 of the last 5 emails');
    await page.getByRole('button', { name: /Save/ }).click();
    await expect.poll(() => service.service.team('t').automations.size).toBe(1);
  });

  test('R makes a rule from the open email, and the preview already shows it', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await page.getByRole('option').filter({ hasText: 'Weekly report' }).click();
    await expect(page.getByRole('heading', { name: 'Weekly report' })).toBeVisible();
    await page.keyboard.press('R');
    const form = page.getByRole('form', { name: 'New automation' });
    await expect(form.getByLabel('Sender (email address)')).toHaveValue('bot@example.test');
    await expect(form.getByLabel('Inbox (email address)')).toHaveValue('team@acme.test');
    await expect(form.getByLabel('Subject (regular expression)')).toHaveValue('^Weekly report$');
    const preview = page.getByRole('region', { name: 'What this rule catches' });
    await expect(preview.getByRole('heading')).toHaveText('Matches 1 of the last 5 emails');
    await expect(preview.locator('li .subject')).toHaveText(['Weekly report']);
  });
});

test('R on mail from bot+orders@ to support+vip@ makes a rule that catches it, and saved, the service delivers it (issue 20)', async ({ openApp }) => {
  const received: string[] = [];
  const receiver = await stubServer((request, response) => {
    received.push(request.url ?? '');
    response.end('ok');
  });
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], allowPrivateWebhooks: true });
  try {
    const mail = rawMail({ subject: 'Order 55 shipped', from: 'Shop <bot+orders@shop.test>', to: 'support+vip@inbox.test', text: 'x' });
    await service.inject(mail);
    await service.inject(rawMail({ subject: 'Order 56 shipped', from: 'Shop <bot@shop.test>', to: 'support@inbox.test', text: 'x' }));
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await page.getByRole('option').filter({ hasText: 'Order 55 shipped' }).click();
    await expect(page.getByRole('heading', { name: 'Order 55 shipped' })).toBeVisible();
    await page.keyboard.press('R');
    const form = page.getByRole('form', { name: 'New automation' });
    await expect(form.getByLabel('Sender (email address)')).toHaveValue('bot+orders@shop.test');
    await expect(form.getByLabel('Inbox (email address)')).toHaveValue('support+vip@inbox.test');
    await expect(page.getByRole('region', { name: 'What this rule catches' }).getByRole('heading')).toHaveText('Matches 1 of the last 2 emails');
    await form.getByLabel('Webhook URL').fill(`${receiver.url}/orders`);
    await form.getByRole('button', { name: /Save/ }).click();
    await expect.poll(() => service.service.team('t').automations.size).toBe(1);
    // The next such email arrives: the service's own matcher catches it, and only it.
    await service.inject(mail);
    await service.inject(rawMail({ subject: 'Order 55 shipped', from: 'malice+bot+orders@shop.test', to: 'support+vip@inbox.test', text: 'x' }));
    await service.service.settled();
    expect(received).toEqual(['/orders']);
  } finally {
    await service.close();
    await receiver.close();
  }
});

test('MailCare rules preview with PCRE’s lookaround, and a pattern too slow to preview says so (issue 20)', async ({ openApp }) => {
  const service = await startReferenceService({ teams: [{ id: 'default', token: 'x' }], flavor: 'mailcare' });
  try {
    const senders = ['billing@vendor.test', 'billing@vendor.test', 'ann@acme.test', 'bob@example.test', 'bot@example.test'];
    for (const [i, from] of senders.entries()) {
      await service.inject(rawMail({ subject: i === 4 ? `${'a'.repeat(40)}!` : `Mail ${i}`, from, to: 'ops@acme.test', text: 'x' }));
    }
    const { page } = await openApp({ baseUrl: service.baseUrl, flavor: 'mailcare' });
    await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option')).toHaveCount(5);
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.keyboard.press('c');
    const preview = page.getByRole('region', { name: 'What this rule catches' });
    await page.getByLabel('Sender (regular expression)').fill('^(?!billing@)');
    // Counted by hand: every sender but the two billing@ ones. No warning that it matches everything.
    await expect(preview.getByRole('heading')).toHaveText('Matches 3 of the last 5 emails');
    await expect(page.getByText('This matches every email')).toHaveCount(0);
    // Catastrophic for a backtracking engine on the 40 a's: given up, and said plainly.
    await page.getByLabel('Sender (regular expression)').fill('');
    await page.getByLabel('Subject (regular expression)').fill('^(a+)+$');
    await expect(preview.getByRole('status')).toContainText('not previewed', { timeout: 10_000 });
    await expect(preview.getByRole('heading')).toHaveCount(0);
    // A # would end MailCare's pattern (it wraps it in # … #): the form says so.
    await page.getByLabel('Subject (regular expression)').fill('Order #\\d+');
    await expect(page.getByRole('alert').filter({ hasText: 'MailCare wraps patterns in # … #' })).toBeVisible();
  } finally {
    await service.close();
  }
});

test('the rule list from the keyboard: j/k, Enter, / filters, # deletes with Undo', async ({ openApp }) => {
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  try {
    for (const title of ['Invoices', 'Alerts', 'Newsletters']) {
      service.service.team('t').createAutomation({
        title, sender: null, inbox: null, subject: title, has_attachments: false, action_url: 'https://hooks.example.test/x',
        action_email: null, action_secret_token: null, action_delete_email: false, payload_format: 'json',
      });
    }
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await expect(page.getByText('No mail here yet')).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    const rules = page.getByRole('list', { name: 'Rules' });
    await expect(rules.getByRole('listitem')).toHaveCount(3);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(rules.locator('[aria-current="true"]')).toContainText('Alerts');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('form', { name: 'Edit automation' }).getByLabel('Title')).toHaveValue('Alerts');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('/');
    await page.keyboard.type('news');
    await expect(rules.getByRole('listitem')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await page.keyboard.press('j');
    await page.keyboard.press('#');
    await expect(rules.getByRole('listitem')).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'Deleted the rule “Newsletters”.' })).toBeVisible();
    await page.keyboard.press('z');
    await expect(rules.getByRole('listitem')).toHaveCount(1);
    await page.waitForTimeout(5600);
    expect(service.service.team('t').automations.size).toBe(3);
  } finally {
    await service.close();
  }
});

test('no draft is lost: leaving asks save / discard / keep, and a restart brings it back', async ({ openApp }) => {
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  try {
    for (const title of ['Invoices', 'Alerts']) {
      service.service.team('t').createAutomation({
        title, sender: null, inbox: null, subject: title, has_attachments: false, action_url: 'https://hooks.example.test/x',
        action_email: null, action_secret_token: null, action_delete_email: false, payload_format: 'json',
      });
    }
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await expect(page.getByText('No mail here yet')).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    const rules = page.getByRole('list', { name: 'Rules' });
    await rules.getByRole('listitem').filter({ hasText: 'Alerts' }).getByRole('button', { name: 'Edit' }).click();
    const title = page.getByRole('form', { name: 'Edit automation' }).getByLabel('Title');
    await title.fill('Alerts, renamed');
    // Main knows, so closing the window asks too.
    await expect.poll(() => app.handlers.unsavedDraft()).toBe('Alerts, renamed');
    // Another view: asked, and Keep editing keeps it.
    await title.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('i');
    const guard = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(guard).toContainText('“Alerts, renamed” has changes that are not saved.');
    await guard.getByRole('button', { name: 'Keep editing' }).click();
    await expect(title).toHaveValue('Alerts, renamed');
    // Another rule: Save stores it, then opens the other one.
    await rules.getByRole('listitem').filter({ hasText: 'Invoices' }).getByRole('button', { name: 'Edit' }).click();
    await guard.getByRole('button', { name: 'Save' }).click();
    await expect(title).toHaveValue('Invoices');
    await expect.poll(() => [...service.service.team('t').automations.values()].map((a) => a.title).sort()).toEqual(['Alerts, renamed', 'Invoices']);

    // A restart with a draft open: it comes back, and says so.
    await title.fill('Invoices (half typed');
    await page.reload();
    await expect(page.getByText('No mail here yet')).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await expect(page.getByRole('form', { name: 'Edit automation' }).getByLabel('Title')).toHaveValue('Invoices (half typed');
    await expect(page.getByRole('status').filter({ hasText: 'are back' })).toBeVisible();
    // Esc twice, Discard: gone for good.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByRole('form', { name: 'Edit automation' })).toHaveCount(0);
    await expect.poll(() => app.handlers.unsavedDraft()).toBeNull();
    expect([...service.service.team('t').automations.values()].map((a) => a.title).sort()).toEqual(['Alerts, renamed', 'Invoices']);
  } finally {
    await service.close();
  }
});

test('the payload preview is what the service posts, byte for byte; Send test and Copy as curl work', async ({ openApp }) => {
  const received: { headers: Record<string, string | string[] | undefined>; body: string; url: string }[] = [];
  const receiver = await stubServer((request, response) => {
    received.push({ headers: request.headers, body: request.body, url: request.url ?? '' });
    response.end('thanks');
  });
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], allowPrivateWebhooks: true });
  try {
    const [id] = await service.inject(rawMail({ subject: 'Invoice 77', from: 'Billing <billing@vendor.test>', html: '<p>Pay <b>77</b></p>', text: 'Pay 77' }));
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await expect(page.getByRole('option').filter({ hasText: 'Invoice 77' })).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.keyboard.press('c');
    await page.getByLabel('Title').fill('Invoices to accounting');
    await page.getByLabel('Subject (regular expression)').fill('^Invoice');
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/hook`);
    await page.getByLabel('Secret token').fill('tok-77');
    const panel = page.getByRole('region', { name: 'Payload preview' });
    const email = service.service.team('t').getEmail(id!)!;
    const input = { title: 'Invoices to accounting', sender: null, inbox: null, subject: '^Invoice', has_attachments: false, action_url: `${receiver.url}/hook`, action_email: null, action_secret_token: 'tok-77', action_delete_email: false };

    for (const format of ['raw', 'json', 'json_with_bodies'] as const) {
      await page.getByLabel('Payload format').selectOption(format);
      await expect(panel.getByRole('table', { name: 'Webhook headers' })).toContainText(format === 'raw' ? 'message/rfc2822' : 'application/json');
      const shown = await app.handlers.table.automationPayload({ emailId: id!, input: { ...input, payload_format: format } });
      // The reference service posts the same rule for the same email.
      received.length = 0;
      await runAutomations([{ ...input, payload_format: format, id: 'x', emails_received: 0, in_error: false, created_at: new Date(), updated_at: new Date() }], email, service.service.team('t').content(id!)!, {
        timeoutMs: 2000, allowPrivate: true, onChange: () => undefined, deleteEmail: () => undefined,
      });
      const posted = received[0]!;
      if (format === 'raw') expect(posted.body).toBe(shown.bodyText);
      else expect(JSON.parse(posted.body)).toEqual(JSON.parse(shown.bodyText));
      expect(posted.body).toBe(shown.bodyText);
      expect(shown.exact).toBe(true);
      expect(posted.headers['x-service-signature']).toBe(shown.headers['X-Service-Signature']);
      expect(posted.headers['x-service-signature']).toBe(signPayload(posted.body, 'tok-77'));
      await expect(panel.getByRole('table', { name: 'Webhook headers' })).toContainText(shown.headers['X-Service-Signature']!);
    }

    // The receiver is on this machine: main asks first, in its own dialog, and sends nothing on Cancel.
    received.length = 0;
    await panel.getByRole('button', { name: 'Send test' }).click();
    await expect(panel.getByRole('status')).toContainText('Test not delivered: Not sent: 127.0.0.1');
    expect(app.consentAsked).toEqual(['Send a test to this machine or your network?']);
    expect(received).toEqual([]);
    app.answerConsent(true);
    await panel.getByRole('button', { name: 'Send test' }).click();
    await expect(panel.getByRole('status')).toContainText(/Test sent: 200 in \d+ ms — “thanks”/);
    expect(received.map((r) => r.url)).toEqual(['/hook']);
    // Remembered for this account: the next test does not ask again.
    app.answerConsent(false);
    await panel.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => received.length).toBe(2);
    expect(app.consentAsked).toHaveLength(2);
    received.splice(1);
    expect(received[0]!.headers['x-service-title']).toBe(encodeURIComponent('Invoices to accounting'));

    await panel.getByRole('button', { name: 'Copy as curl' }).click();
    await expect.poll(() => app.clipboard).toContain(`curl -sS -X POST '${receiver.url}/hook'`);
    expect(app.clipboard).toContain("-H 'X-Service-Signature: sha256=");
    // Nothing of this marked the email read.
    expect(email.read).toBeNull();
  } finally {
    await service.close();
    await receiver.close();
  }
});

test('a compromised renderer cannot use Send test to reach this machine or a private network without main’s dialog (issue 18)', async ({ openApp }) => {
  const receiver = await stubServer((_request, response) => response.end('secret intranet page'));
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  try {
    const [id] = await service.inject(rawMail({ subject: 'Anything' }));
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await expect(app.page.getByRole('option').filter({ hasText: 'Anything' })).toBeVisible();
    // Called straight on window.api, as script running in a compromised renderer would.
    const attempt = (url: string) =>
      app.page.evaluate(
        ([emailId, actionUrl]) =>
          (window as unknown as { api: { sendTestPayload: (a: unknown) => Promise<unknown> } }).api.sendTestPayload({
            emailId,
            input: { title: 'x', subject: 'x', action_url: actionUrl, payload_format: 'json' },
          }),
        [id!, url] as const,
      );
    const port = new URL(receiver.url).port;
    for (const url of [`${receiver.url}/a`, `http://localhost:${port}/b`, `http://[::ffff:127.0.0.1]:${port}/c`, `http://2130706433:${port}/d`]) {
      expect(await attempt(url)).toMatchObject({ ok: true, value: { status: 0, responseStart: '', error: expect.stringContaining('Not sent') } });
    }
    expect(receiver.requests).toEqual([]);
    expect(app.consentAsked).toHaveLength(4);
  } finally {
    await service.close();
    await receiver.close();
  }
});

test('a server without rule creation or deletion says so, and those buttons go', async ({ openApp }) => {
  const rule = { id: 'r1', title: 'Existing rule', subject: 'x', action_url: 'https://hooks.example.test/x', payload_format: 'json', emails_received: 0, in_error: false, created_at: null, updated_at: null };
  const server = await stubServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path?.endsWith('/automations') && request.method === 'GET') return sendJson(response, 200, { data: [rule] });
    if (path?.endsWith('/automations') && request.method === 'POST') return sendJson(response, 405, { message: 'Method Not Allowed' });
    if (path?.includes('/automations/') && request.method === 'DELETE') return sendJson(response, 405, { message: 'Method Not Allowed' });
    return sendJson(response, 200, EMPTY_PAGE);
  });
  try {
    const { page } = await openApp({ baseUrl: server.url, teamId: 't', token: TOKEN });
    await expect(page.getByText('No mail here yet')).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await expect(page.getByRole('list', { name: 'Rules' }).getByRole('listitem')).toHaveCount(1);
    await page.keyboard.press('c');
    await page.getByLabel('Title').fill('A new one');
    await page.getByLabel('Webhook URL').fill('https://hooks.example.test/y');
    await page.getByRole('button', { name: /Save/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'does not offer creating rules' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New (c)' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Cancel (Esc)' }).click();
    await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByRole('form', { name: 'New automation' })).toHaveCount(0);
    await expect(page.getByText('This server does not offer creating rules')).toBeVisible();
    await page.keyboard.press('c');
    await expect(page.getByRole('form', { name: 'New automation' })).toHaveCount(0);
    // Delete: gone at once, back when the server refuses it after the undo window, and the button goes.
    const rules = page.getByRole('list', { name: 'Rules' });
    await rules.getByRole('listitem').getByRole('button', { name: 'Delete' }).click();
    await expect(rules.getByRole('listitem')).toHaveCount(0);
    await expect(page.getByRole('alert').filter({ hasText: 'does not offer deleting rules' })).toBeVisible({ timeout: 9000 });
    await expect(rules.getByRole('listitem')).toHaveCount(1);
    await expect(rules.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  } finally {
    await server.close();
  }
});
