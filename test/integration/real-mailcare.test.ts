/**
 * The MailCare flavor against the real MailCare (issue 24): main's own
 * handlers and client, the way the app uses them, against MailCare's own
 * code (../shared/mailcare), with mail received through its artisan command.
 * Connect by pasting the address (with and without HTTP Basic), list and
 * paginate, every body by Accept (raw exactly as stored), attachments, stars,
 * deletes, the automation CRUD (a PUT carries every column), 403 when
 * automations are off, and the bytes MailCare's webhooks post compared with
 * the app's payload preview.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { ServiceClient } from '../../src/main/api/client.ts';
import { dispatch, type Handlers } from '../../src/main/handlers.ts';
import { parseMessage } from '../../src/server/ingest.ts';
import { testCipher } from '../support/cipher.ts';
import { mainHandlers, webhookReceiver } from '../support/main-handlers.ts';
import { MAILCARE_LOGIN, REAL_MAILCARE_REQUIRED, realMailCareMissing, startRealMailCare, type RealMailCare } from '../support/real-mailcare.ts';
import { caniemail, rawData } from 'caniemail';
import { compatReport, markDataGaps, type CompatCheck } from '../../src/main/qa/compat.ts';

markDataGaps(rawData as unknown as Parameters<typeof markDataGaps>[0]);

const missing = realMailCareMissing();
if (missing && !REAL_MAILCARE_REQUIRED) console.warn(`[real MailCare] skipped: ${missing}`);
const suite = missing && !REAL_MAILCARE_REQUIRED ? describe.skip : describe;

const DEMO = resolve('resources/demo/mail');
/** Demo emails: 005 (an invoice), 006, 007, and one with an attachment (found below). */
const demo = (name: string) => readFile(join(DEMO, name));

suite('the MailCare flavor against the real MailCare (issue 24)', () => {
  let mailcare: RealMailCare;
  let dir: string;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>> | undefined;
  let receiverUrl = '';
  let attachmentMail = '';

  beforeAll(async () => {
    mailcare = await startRealMailCare();
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-real-mc-'));
    receiver = await webhookReceiver();
    receiverUrl = receiver.origin;
    // Four emails, dated a minute apart (received in the same second, MailCare's order would be a tie).
    for (const name of ['005.eml', '006.eml', '007.eml']) await mailcare.receive(await demo(name));
    for (const name of (await import('node:fs')).readdirSync(DEMO).filter((f) => f.endsWith('.eml')).sort()) {
      const raw = await demo(name);
      if (/Content-Disposition: attachment/i.test(raw.toString('latin1'))) {
        attachmentMail = name;
        await mailcare.receive(raw);
        break;
      }
    }
    // Same day: MailCare files a message under its created_at date (Email::path), so only the time may move.
    await mailcare.sql("UPDATE emails SET created_at = datetime(date(created_at), '+' || (SELECT count(*) FROM emails e2 WHERE e2.rowid < emails.rowid) || ' minutes')");
  }, 60_000);
  afterAll(async () => {
    await mailcare?.stop();
    await receiver?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Main as the app runs it, with one saved account for this MailCare. */
  const appMain = async (secret?: string, overrides: Parameters<typeof mainHandlers>[1] = {}): Promise<Handlers> => {
    const accounts = await AccountManager.load(join(dir, `settings-${Math.random()}.json`), new TokenVault(testCipher()));
    await accounts.save({ name: 'Real MailCare', baseUrl: mailcare.baseUrl, flavor: 'mailcare', ...(secret ? { token: secret } : {}) });
    return mainHandlers(accounts, overrides);
  };

  /** The list as the renderer asks for it (the contract's parsed query type has every key). */
  const list = (main: Handlers, query: Record<string, unknown>) => main.table.listEmails(query as Parameters<Handlers['table']['listEmails']>[0]);

  it('connects by the address as pasted, and finds it is MailCare', async () => {
    const main = await appMain();
    for (const pasted of [mailcare.baseUrl, `${mailcare.baseUrl}/api`, `${mailcare.baseUrl}/`]) {
      expect(await dispatch(main, 'testConnection', { baseUrl: pasted }), pasted).toMatchObject({ ok: true, value: { flavor: 'mailcare', baseUrl: mailcare.baseUrl } });
    }
    main.dispose();
  });

  it('with HTTP Basic on: a login is asked for, a wrong one is refused in words, the right one works', async () => {
    await mailcare.configure({ MAILCARE_AUTH: 'true' });
    try {
      const main = await appMain();
      const noLogin = await dispatch(main, 'testConnection', { baseUrl: mailcare.baseUrl });
      expect(noLogin).toMatchObject({ ok: false, error: { kind: 'auth' } });
      const wrong = await dispatch(main, 'testConnection', { baseUrl: mailcare.baseUrl, token: `${MAILCARE_LOGIN.user}:wrong-password` });
      expect(wrong).toMatchObject({ ok: false, error: { kind: 'auth', message: expect.stringMatching(/email and password/i) } });
      expect(await dispatch(main, 'testConnection', { baseUrl: mailcare.baseUrl, token: `${MAILCARE_LOGIN.user}:${MAILCARE_LOGIN.password}` })).toMatchObject({ ok: true, value: { flavor: 'mailcare' } });
      main.dispose();
      const withLogin = await appMain(`${MAILCARE_LOGIN.user}:${MAILCARE_LOGIN.password}`);
      expect(await dispatch(withLogin, 'listEmails', {})).toMatchObject({ ok: true, value: { meta: { total: 4 } } });
      withLogin.dispose();
    } finally {
      await mailcare.configure({ MAILCARE_AUTH: 'false' });
    }
  });

  it('lists and pages with Laravel’s paginator as it is, newest first', async () => {
    const main = await appMain();
    const first = await list(main, { limit: 3, page: 1 });
    const second = await list(main, { limit: 3, page: 2 });
    expect(first.meta).toMatchObject({ current_page: 1, last_page: 2, total: 4 });
    expect(second.meta).toMatchObject({ current_page: 2, last_page: 2, total: 4 });
    const subjects = [...first.data, ...second.data].map((e) => e.subject);
    const expected: string[] = [];
    for (const name of ['005.eml', '006.eml', '007.eml', attachmentMail]) expected.unshift((await parseMessage(await demo(name))).subject);
    expect(subjects).toEqual(expected);
    main.dispose();
  });

  it('reads every body by Accept: HTML, text, and the raw message byte for byte as received', async () => {
    const main = await appMain();
    const client = new ServiceClient({ baseUrl: mailcare.baseUrl, teamId: '', token: null, flavor: 'mailcare' });
    const listed = await list(main, { limit: 10 });
    for (const [i, name] of [attachmentMail, '007.eml', '006.eml', '005.eml'].entries()) {
      const sent = await demo(name);
      const parsed = await parseMessage(sent);
      const id = listed.data[i]!.id;
      expect((await client.rawMessage(id)).equals(sent), name).toBe(true);
      if (parsed.text) expect((await main.table.getEmailBody({ id, format: 'text', whole: true })).content.trim(), name).toBe(parsed.text.trim());
      if (parsed.html) expect((await main.table.getEmailBody({ id, format: 'html', whole: true })).content, name).toContain(parsed.html.slice(0, 40));
    }
    main.dispose();
  });

  it('checks an HTML email’s compatibility from MailCare’s HTML body, line for line as the email has it', async () => {
    const main = await appMain(undefined, { bench: { compatWorker: resolve('src/main/compat-worker.ts') } });
    const listed = await list(main, { limit: 10 });
    let checked = 0;
    for (const [i, name] of [attachmentMail, '007.eml', '006.eml', '005.eml'].entries()) {
      const parsed = await parseMessage(await demo(name));
      if (!parsed.html || !listed.data[i]!.has_html) continue;
      const report = await main.table.checkCompatibility({ id: listed.data[i]!.id });
      // The same check on the HTML as parsed here from the bytes sent: the same features on the same lines.
      const direct = compatReport(parsed.html, caniemail as unknown as CompatCheck);
      expect(report.findings.map((f) => [f.feature, f.lines]), name).toEqual(direct.findings.map((f) => [f.feature, f.lines]));
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
    main.dispose();
  });

  it('saves an attachment with the bytes that were sent', async () => {
    const main = await appMain();
    const parsed = await parseMessage(await demo(attachmentMail));
    const email = (await list(main, { limit: 10 })).data.find((e) => e.subject === parsed.subject)!;
    expect(email.attachments.length).toBe(parsed.attachments.length);
    const client = new ServiceClient({ baseUrl: mailcare.baseUrl, teamId: '', token: null, flavor: 'mailcare' });
    const { bytes } = await client.getAttachment(email.id, email.attachments[0]!.id);
    expect(Buffer.from(bytes).equals(parsed.attachments[0]!.content)).toBe(true);
    main.dispose();
  });

  it('stars and unstars, reading marks read, and a delete removes the email', async () => {
    const main = await appMain();
    const [target] = (await list(main, { limit: 1 })).data;
    await main.table.setFavorite({ id: target!.id, favorite: true });
    expect((await list(main, { limit: 10, favorite: true, fresh: true })).data.map((e) => e.id)).toEqual([target!.id]);
    await main.table.setFavorite({ id: target!.id, favorite: false });
    expect((await list(main, { limit: 10, favorite: true, fresh: true })).data).toEqual([]);
    const read = await main.table.getEmail({ id: target!.id });
    expect(read.id).toBe(target!.id);
    const unread = (await list(main, { limit: 10, unread: true, fresh: true })).data.map((e) => e.id);
    expect(unread).not.toContain(target!.id);
    // A throwaway email to delete.
    await mailcare.receive(await demo('008.eml'));
    const subject = (await parseMessage(await demo('008.eml'))).subject;
    const victim = (await list(main, { limit: 10, fresh: true })).data.find((e) => e.subject === subject)!;
    await main.table.deleteEmail({ id: victim.id });
    const after = await list(main, { limit: 10, fresh: true });
    expect(after.data.map((e) => e.id)).not.toContain(victim.id);
    expect(after.meta.total).toBe(4);
    main.dispose();
  });

  it('creates, lists, edits (a PUT that carries every column) and deletes rules', async () => {
    const main = await appMain();
    const input = { title: 'Invoices to accounting', subject: '^Invoice', sender: '@example\\.com$', inbox: null, has_attachments: false, action_url: `${receiverUrl}/crud`, action_email: null, action_secret_token: 'tok', action_delete_email: false, payload_format: 'raw' };
    await main.table.createAutomation({ input });
    let rules = await main.table.listAutomations(undefined);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ title: 'Invoices to accounting', subject: '^Invoice', sender: '@example\\.com$', payload_format: 'raw', action_secret_token: 'tok' });
    await main.table.updateAutomation({ id: rules[0]!.id, input: { ...input, title: 'Renamed' } });
    rules = await main.table.listAutomations(undefined);
    // Every other column kept its value: the PUT carried them all.
    expect(rules[0]).toMatchObject({ title: 'Renamed', subject: '^Invoice', sender: '@example\\.com$', payload_format: 'raw', action_secret_token: 'tok', action_url: `${receiverUrl}/crud` });
    await main.table.deleteAutomation({ id: rules[0]!.id });
    expect(await main.table.listAutomations(undefined)).toEqual([]);
    main.dispose();
  });

  it('says in words that automations are turned off (403)', async () => {
    await mailcare.configure({ MAILCARE_AUTOMATIONS: 'false' });
    try {
      const main = await appMain();
      expect(await dispatch(main, 'listAutomations', undefined)).toMatchObject({ ok: false, error: { kind: 'forbidden', message: expect.stringContaining('turned off') } });
      main.dispose();
    } finally {
      await mailcare.configure({ MAILCARE_AUTOMATIONS: 'true' });
    }
  });

  for (const format of ['raw', 'json'] as const) {
    it(`the bytes MailCare posts (${format}) are the app’s payload preview`, async () => {
      const main = await appMain();
      const input = { title: `Payload check ${format} – café`, subject: 'Invoice', sender: null, inbox: null, has_attachments: false, action_url: `${receiverUrl}/${format}`, action_email: null, action_secret_token: 'shh', action_delete_email: false, payload_format: format };
      await main.table.createAutomation({ input });
      receiver!.received.length = 0;
      // A subject of its own: mail received in the same second is in no particular order.
      const raw = Buffer.from((await demo('019.eml')).toString('latin1').replace(/^Subject: .*$/m, `Subject: Invoice for the ${format} check`), 'latin1');
      await mailcare.receive(raw);
      expect(receiver!.received).toHaveLength(1);
      const posted = receiver!.received[0]!;
      const subject = (await parseMessage(raw)).subject;
      const email = (await list(main, { limit: 20, fresh: true })).data.find((e) => e.subject === subject)!;
      const preview = await main.table.automationPayload({ emailId: email.id, input });
      expect(preview.exact).toBe(true);
      expect(Buffer.from(preview.bodyBase64, 'base64').equals(posted.body)).toBe(true);
      if (format === 'raw') expect(posted.body.equals(raw)).toBe(true);
      // Every header MailCare sent of its own (the HTTP library's aside) is in the preview, with the same bytes.
      const own = Object.entries(posted.headers).filter(([name]) => name.startsWith('x-mailcare-') || name === 'content-type');
      expect(own.length).toBeGreaterThanOrEqual(4);
      for (const [name, value] of own) {
        const shown = Object.entries(preview.headers).find(([n]) => n.toLowerCase() === name)?.[1];
        expect(shown === undefined ? undefined : Buffer.from(shown, 'utf8').toString('latin1'), name).toBe(value);
      }
      for (const rule of await main.table.listAutomations(undefined)) await main.table.deleteAutomation({ id: rule.id });
      main.dispose();
    });
  }
});

suite('the real MailCare’s throttle:60,1 is met with pacing, not with 429s (issue 24)', () => {
  let mailcare: RealMailCare;
  beforeAll(async () => {
    // A file cache: MailCare's rate limiter counts across requests, as in production.
    mailcare = await startRealMailCare({ CACHE_DRIVER: 'file' });
  }, 60_000);
  afterAll(async () => {
    await mailcare?.stop();
  });

  it('spends the 60 requests of the window, then holds the next instead of asking for a 429', async () => {
    const client = new ServiceClient({ baseUrl: mailcare.baseUrl, teamId: '', token: null, flavor: 'mailcare' });
    // Whatever is left of the window (starting the server asked once): spent to the last request.
    for (let i = 0; i < 60 && client.rateLimit.remaining !== 0; i++) await client.listEmails({ page: (i % 3) + 1 }, { fresh: true });
    expect(client.rateLimit).toMatchObject({ limit: 60, remaining: 0 });
    let settled: string | null = null;
    const held = client.listEmails({ page: 4 }, { fresh: true }).then(
      () => (settled = 'answered'),
      (error: { kind?: string }) => (settled = `failed: ${error.kind}`),
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Not answered (MailCare would have said 429), not failed: waiting for the window, which the app shows.
    expect(settled).toBeNull();
    expect(client.rateLimit.blockedUntil).toBeGreaterThan(Date.now());
    client.abortAll();
    await held;
    expect(settled).toBe('failed: cancelled');
  }, 60_000);
});
