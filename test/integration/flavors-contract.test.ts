import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, type Connection } from '../../src/main/api/client.ts';
import { detectServer } from '../../src/main/api/detect.ts';
import type { AutomationInput } from '../../src/shared/domain/automation.ts';
import type { FlavorName } from '../../src/shared/flavors/index.ts';
import { startReferenceService, type RunningService, type StartOptions } from '../../src/server/index.ts';
import { failure } from '../support/failure.ts';
import { rawMail } from '../support/mail.ts';
import { stubServer, type StubServer } from '../support/stub-server.ts';

/**
 * One client suite, run against the reference service speaking each wire:
 * the API document's service and MailCare as it is.
 */
const fast = { timeoutMs: 2000, backoffBaseMs: 5, maxRetryWaitMs: 3000, maxRetries: 0 };
const TOKEN = 'contract-token-123';
const LOGIN = { user: 'ops@acme.test', password: 'pw:with-colon' };


const setups: Record<FlavorName, { start: StartOptions; connection: (baseUrl: string) => Connection; wrong: (baseUrl: string) => Connection }> = {
  'service-v1': {
    start: { teams: [{ id: 'alpha', token: TOKEN }, { id: 'beta', token: 'beta-token-999' }] },
    connection: (baseUrl) => ({ baseUrl, teamId: 'alpha', token: TOKEN, flavor: 'service-v1' }),
    wrong: (baseUrl) => ({ baseUrl, teamId: 'alpha', token: 'not-the-token', flavor: 'service-v1' }),
  },
  mailcare: {
    start: { teams: [{ id: 'default', token: 'unused' }], flavor: 'mailcare', basic: LOGIN },
    connection: (baseUrl) => ({ baseUrl, teamId: '', token: `${LOGIN.user}:${LOGIN.password}`, flavor: 'mailcare' }),
    wrong: (baseUrl) => ({ baseUrl, teamId: '', token: `${LOGIN.user}:wrong`, flavor: 'mailcare' }),
  },
};

const rule = (patch: Partial<AutomationInput> = {}): Required<AutomationInput> => ({
  title: 'Rule',
  sender: null,
  inbox: null,
  subject: null,
  has_attachments: false,
  action_url: 'https://hooks.example.test/x',
  action_email: null,
  action_secret_token: null,
  action_delete_email: false,
  payload_format: 'json',
  ...patch,
});

describe.each(['service-v1', 'mailcare'] as const)('the client against the %s wire', (flavor) => {
  const setup = setups[flavor];
  let service: RunningService;
  let client: ServiceClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    service = await startReferenceService(setup.start);
    const inject = async (name: string, mail: Parameters<typeof rawMail>[0], day: number) => {
      const [id] = await service.inject(rawMail(mail));
      service.service.team(service.service.defaultTeamId).updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, day, 10)) });
      ids[name] = id!;
    };
    for (let i = 1; i <= 22; i++) await inject(`n${i}`, { subject: `Newsletter ${i}`, from: 'news@digest.test', text: `Issue ${i}` }, i);
    await inject('invoice', { subject: 'Invoice 2026-11', from: 'Billing <billing@vendor.test>', to: 'billing@acme.test', html: '<p>Amount <b>42</b></p>', text: 'Amount 42' }, 23);
    await inject('attached', { subject: 'Report attached', attachment: { name: 'report.csv', type: 'text/csv', content: 'a,b\n1,2\n' } }, 24);
    await inject('textOnly', { subject: 'Plain only', text: 'Only <text> & more' }, 25);
    client = new ServiceClient(setup.connection(service.baseUrl), fast);
  });
  afterAll(() => service.close());

  it('lists newest first, pages, and filters', async () => {
    const first = await client.listEmails({ limit: 10 });
    expect(first.meta).toMatchObject({ current_page: 1, last_page: 3, per_page: 10, total: 25, from: 1, to: 10 });
    expect(first.data[0]!.subject).toBe('Plain only');
    const third = await client.listEmails({ limit: 10, page: 3 });
    expect(third.data.map((e) => e.subject)).toEqual(['Newsletter 5', 'Newsletter 4', 'Newsletter 3', 'Newsletter 2', 'Newsletter 1']);
    expect((await client.listEmails({ subject: 'Invoice *' })).data.map((e) => e.id)).toEqual([ids.invoice]);
    expect((await client.listEmails({ sender: 'billing@vendor.test' })).meta.total).toBe(1);
    expect((await client.listEmails({ inbox: 'billing@acme.test' })).meta.total).toBe(1);
    expect((await client.listEmails({ search: 'newsletter 2' })).data.map((e) => e.subject).sort()).toEqual(['Newsletter 2', 'Newsletter 20', 'Newsletter 21', 'Newsletter 22']);
    // An address the server has never seen: an empty list that says so.
    expect(await client.listEmails({ inbox: 'nobody@acme.test' })).toMatchObject({ data: [], unknownAddress: { field: 'inbox', value: 'nobody@acme.test' } });
    // Records are normalised whatever the wire leaves out (MailCare sends no carbon_copies).
    expect(first.data[0]!.carbon_copies).toEqual([]);
  });

  it('reads every body format; the JSON read marks the email read', async () => {
    const before = (await client.listEmails({ subject: 'Invoice *' }, { fresh: true })).data[0]!;
    expect(before.read).toBeNull();
    const email = await client.getEmail(ids.invoice!);
    expect(email.read).not.toBeNull();
    expect((await client.listEmails({ unread: true }, { fresh: true })).data.map((e) => e.id)).not.toContain(ids.invoice);
    expect((await client.getEmailBody(ids.invoice!, 'html')).content).toContain('<b>42</b>');
    expect((await client.getEmailBody(ids.invoice!, 'text')).content).toContain('Amount 42');
    // MailCare HTML-escapes the raw message; the client shows it as sent.
    const raw = (await client.getEmailBody(ids.textOnly!, 'raw')).content;
    expect(raw).toContain('From: Alice <alice@example.test>');
    expect(raw).toContain('Only <text> & more');
    expect((await failure(client.getEmailBody(ids.textOnly!, 'html'))).kind).toBe('not-acceptable');
  });

  it('downloads attachments; a missing one is not-found and never makes downloads "unsupported"', async () => {
    const email = await client.getEmail(ids.attached!);
    const attachment = email.attachments[0]!;
    expect(attachment).toMatchObject({ file_name: 'report.csv', content_type: 'text/csv' });
    const missing = await failure(client.getAttachment(ids.attached!, '00000000-0000-4000-8000-000000000000'));
    expect(missing.kind).toBe('not-found');
    expect(client.isUnsupported('getAttachment')).toBe(false);
    const { bytes } = await client.getAttachment(ids.attached!, attachment.id);
    expect(bytes.toString()).toBe('a,b\n1,2\n');
  });

  it('stars, unstars and deletes', async () => {
    await client.setFavorite(ids.n1!, true);
    expect((await client.listEmails({ favorite: true }, { fresh: true })).data.map((e) => e.id)).toEqual([ids.n1]);
    await client.setFavorite(ids.n1!, false);
    expect((await client.listEmails({ favorite: true }, { fresh: true })).meta.total).toBe(0);
    await client.deleteEmail(ids.n2!);
    expect((await failure(client.getEmail(ids.n2!))).kind).toBe('not-found');
    expect(client.isUnsupported('deleteEmail')).toBe(false);
  });

  it('creates, updates (the whole rule, nothing lost), lists and deletes automations, with field errors', async () => {
    const created = await client.createAutomation(rule({ title: 'Raw to hook', subject: '^Invoice', payload_format: 'raw', action_secret_token: 's3' }));
    expect(created).toMatchObject({ title: 'Raw to hook', subject: '^Invoice', payload_format: 'raw', action_secret_token: 's3' });
    const updated = await client.updateAutomation(created.id, rule({ title: 'Renamed', subject: '^Invoice', payload_format: 'raw', action_secret_token: 's3' }));
    expect(updated).toMatchObject({ id: created.id, title: 'Renamed', subject: '^Invoice', payload_format: 'raw', action_secret_token: 's3' });
    const listed = await client.listAutomations();
    expect(listed.find((a) => a.id === created.id)).toMatchObject({ title: 'Renamed', payload_format: 'raw' });
    const invalid = await failure(client.updateAutomation(created.id, rule({ action_url: 'not a url' })));
    expect(invalid.kind).toBe('validation');
    expect(Object.keys(invalid.fields ?? {})).toContain('action_url');
    await client.deleteAutomation(created.id);
    expect((await client.listAutomations()).some((a) => a.id === created.id)).toBe(false);
  });

  it('maps 401, 403, 404 and 429 to what they mean', async () => {
    const wrong = new ServiceClient(setup.wrong(service.baseUrl), fast);
    expect((await failure(wrong.listEmails({}))).kind).toBe('auth');
    expect((await failure(client.getEmail('00000000-0000-4000-8000-000000000000'))).kind).toBe('not-found');
    if (flavor === 'service-v1') {
      const other = new ServiceClient({ ...setup.connection(service.baseUrl), teamId: 'beta' }, fast);
      expect((await failure(other.listEmails({}))).kind).toBe('forbidden');
    }
    const limited = await startReferenceService({ ...setup.start, rateLimit: 2 });
    try {
      const busy = new ServiceClient(setup.connection(limited.baseUrl), fast);
      await busy.listEmails({}, { fresh: true });
      await busy.listEmails({}, { fresh: true });
      // This client would now wait for the window (rate-budget.ts): another one, knowing nothing yet, meets the 429.
      const newcomer = new ServiceClient(setup.connection(limited.baseUrl), fast);
      const tooMany = await failure(newcomer.listEmails({}, { fresh: true }));
      expect(tooMany.kind).toBe('rate-limited');
      expect(tooMany.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('maps a 500 to a server error that does not promise a retry will help', async () => {
    const broken = await stubServer((request, response) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ message: 'Server Error', path: request.url }));
    });
    try {
      const failing = new ServiceClient(setup.connection(broken.url), fast);
      const error = await failure(failing.listEmails({}));
      expect(error).toMatchObject({ kind: 'server', status: 500 });
      expect(error.message).toMatch(/may not help/);
      // The path the client asked shows the wire it speaks.
      expect(broken.requests[0]!.url).toMatch(flavor === 'mailcare' ? /^\/api\/emails(\?|$)/ : /^\/api\/teams\/alpha\/emails(\?|$)/);
    } finally {
      await broken.close();
    }
  });

  it('is found by "Test connection" from the base address alone', async () => {
    const { token } = setup.connection(service.baseUrl);
    const found = await detectServer({
      baseUrl: service.baseUrl,
      teamId: flavor === 'service-v1' ? 'alpha' : '',
      secret: token,
      candidates: flavor === 'service-v1' ? ['service-v1', 'mailcare'] : ['mailcare', 'service-v1'],
      http: fast,
    });
    expect(found).toEqual({ flavor, total: expect.any(Number) });
  });
});

describe('MailCare as it is', () => {
  let service: RunningService | null = null;
  let receiver: StubServer | null = null;
  afterEach(async () => {
    await service?.close();
    await receiver?.close();
    service = null;
    receiver = null;
  });
  const mailcare = (options: Partial<StartOptions> = {}) =>
    startReferenceService({ teams: [{ id: 'default', token: 'unused' }], flavor: 'mailcare', ...options });

  it('answers writes with an empty 200 and replaces every column on PUT (a boolean left out is a 500)', async () => {
    // A forward address is allowed only where forwarding is on (MAILCARE_FORWARD).
    service = await mailcare({ forward: true });
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${service!.baseUrl}/api/${path}`, { ...init, headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
    const create = await api('automations', {
      method: 'POST',
      body: JSON.stringify({ title: 'Forward', inbox: '^support@', has_attachments: false, action_email: 'team@acme.test', action_delete_email: false, post_raw: false }),
    });
    expect([create.status, await create.text()]).toEqual([200, '']);
    const [stored] = ((await (await api('automations')).json()) as { data: Record<string, unknown>[] }).data;
    expect(stored).toMatchObject({ title: 'Forward', inbox: '^support@', action_email: 'team@acme.test', post_raw: false });
    expect(stored).not.toHaveProperty('payload_format');
    // As the real MailCare answers (the differential test): validation first (422), then the NOT NULL columns (500).
    const titleOnly = await api(`automations/${stored!.id}`, { method: 'PUT', body: JSON.stringify({ title: 'Only a title' }) });
    expect(titleOnly.status).toBe(422);
    const partial = await api(`automations/${stored!.id}`, { method: 'PUT', body: JSON.stringify({ title: 'No booleans', action_email: 'team@acme.test' }) });
    expect(partial.status).toBe(500);
    const full = await api(`automations/${stored!.id}`, {
      method: 'PUT',
      body: JSON.stringify({ title: 'Renamed', has_attachments: false, action_url: 'https://hooks.example.test/', action_delete_email: false, post_raw: true }),
    });
    expect(full.status).toBe(200);
    const [after] = ((await (await api('automations')).json()) as { data: Record<string, unknown>[] }).data;
    // Left out means null: the inbox criterion and the forward address are gone.
    expect(after).toMatchObject({ title: 'Renamed', inbox: null, action_email: null, post_raw: true });
    const nothing = await api('automations', { method: 'POST', body: JSON.stringify({ title: 'No action', has_attachments: false, action_delete_email: false, post_raw: false }) });
    expect(nothing.status).toBe(422);
  });

  it('answers 403 on automations when they are turned off, and the client says so', async () => {
    service = await mailcare({ automations: false });
    const client = new ServiceClient({ baseUrl: service.baseUrl, teamId: '', token: null, flavor: 'mailcare' }, fast);
    const off = await failure(client.listAutomations());
    expect(off.kind).toBe('forbidden');
    expect(off.message).toMatch(/turned off/);
    expect(client.isUnsupported('listAutomations')).toBe(false);
    expect((await client.listEmails({})).meta.total).toBe(0);
  });

  it('shows Laravel’s HTML 404 to a client that does not ask for JSON, and asks Basic auth with a challenge', async () => {
    service = await mailcare({ basic: LOGIN });
    const html = await fetch(`${service.baseUrl}/api/emails/nope`, { headers: { Accept: '*/*', Authorization: `Basic ${Buffer.from(`${LOGIN.user}:${LOGIN.password}`).toString('base64')}` } });
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toMatch(/text\/html/);
    const denied = await fetch(`${service.baseUrl}/api/emails`, { headers: { Accept: 'application/json' } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toBe('Basic');
  });

  it('posts X-MailCare-* webhooks, raw when post_raw, and deletes matched mail even when the delivery failed', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    receiver = await stubServer((request, response) => {
      received.push({ headers: request.headers, body: request.body });
      response.statusCode = request.url?.includes('fail') ? 500 : 200;
      response.end('ok');
    });
    service = await mailcare({ allowPrivateWebhooks: true });
    const client = new ServiceClient({ baseUrl: service.baseUrl, teamId: '', token: null, flavor: 'mailcare' }, fast);
    await client.createAutomation(rule({ title: 'Raw', subject: 'raw', action_url: `${receiver.url}/raw`, payload_format: 'raw', action_secret_token: 'tok' }));
    await client.createAutomation(rule({ title: 'Consume', subject: 'consume', action_url: `${receiver.url}/fail`, action_delete_email: true }));
    await service.inject(rawMail({ subject: 'raw one' }));
    const [consumed] = await service.inject(rawMail({ subject: 'consume me' }));
    await service.service.settled();
    const raw = received.find((r) => r.body.includes('Subject: raw one'))!;
    expect(raw.headers).toMatchObject({ 'content-type': 'message/rfc2822', 'x-mailcare-title': 'Raw', 'x-mailcare-subject': 'HIT', 'x-mailcare-secret-token': 'tok' });
    expect(raw.headers['x-mailcare-signature']).toBeUndefined();
    // MailCare deletes whenever a matching rule asks, delivered or not.
    expect((await failure(client.getEmail(consumed!))).kind).toBe('not-found');
  });
});
