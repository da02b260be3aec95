import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signPayload, startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';

const VND = 'application/vnd.service.v1+json';
const DEMO = resolve('resources/demo/mail');

function client(service: RunningService, teamId = 'alpha', token = 'alpha-token') {
  const base = `${service.baseUrl}/api/teams/${teamId}`;
  return (path: string, init: RequestInit & { accept?: string } = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: init.accept ?? VND,
        ...(init.headers as Record<string, string> | undefined),
      },
    });
}

async function json(response: Response) {
  return (await response.json()) as Record<string, any>;
}

describe('reference service over real HTTP', () => {
  let service: RunningService;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    service = await startReferenceService({
      teams: [
        { id: 'alpha', token: 'alpha-token' },
        { id: 'beta', token: 'beta-token' },
      ],
      seedDir: DEMO,
    });
    api = client(service);
    await service.inject(rawMail({ subject: 'Beta only secret', to: 'beta@beta.test' }), { teamId: 'beta' });
  });
  afterAll(() => service.close());

  describe('GET /emails', () => {
    it('lists newest first with Laravel pagination', async () => {
      const response = await api('/emails');
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.data).toHaveLength(25);
      const times = body.data.map((e: any) => Date.parse(e.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(body.meta).toMatchObject({ current_page: 1, from: 1, to: 25, per_page: 25, total: 41, last_page: 2 });
      expect(body.meta.path).toBe(`${service.baseUrl}/api/teams/alpha/emails`);
      expect(body.links.prev).toBeNull();
      expect(new URL(body.links.next).searchParams.get('page')).toBe('2');
      expect(new URL(body.links.last).searchParams.get('page')).toBe('2');
    });

    it('gives the last page, a past-the-end page, and caps the page size', async () => {
      const last = await json(await api('/emails?page=2'));
      expect(last.data).toHaveLength(16);
      expect(last.meta).toMatchObject({ current_page: 2, from: 26, to: 41 });
      expect(last.links.next).toBeNull();
      expect(new URL(last.links.prev).searchParams.get('page')).toBe('1');

      const past = await json(await api('/emails?page=9'));
      expect(past.data).toEqual([]);
      expect(past.meta).toMatchObject({ current_page: 9, from: null, to: null, total: 41, last_page: 2 });
      expect(past.links.next).toBeNull();

      const capped = await json(await api('/emails?limit=1000'));
      expect(capped.meta.per_page).toBe(100);
      expect(capped.data).toHaveLength(41);
      const small = await json(await api('/emails?limit=5&page=3'));
      expect(small.meta).toMatchObject({ per_page: 5, current_page: 3, from: 11, to: 15, last_page: 9 });
    });

    it('answers an empty list with correct meta', async () => {
      const body = await json(await api('/emails?search=no-such-thing-anywhere'));
      expect(body.data).toEqual([]);
      expect(body.meta).toMatchObject({ total: 0, from: null, to: null, current_page: 1, last_page: 1 });
    });

    it('carries the other query parameters in its links', async () => {
      const body = await json(await api('/emails?inbox=billing%40acme.test&limit=2'));
      const next = new URL(body.links.next);
      expect(next.searchParams.get('inbox')).toBe('billing@acme.test');
      expect(next.searchParams.get('limit')).toBe('2');
      expect(next.searchParams.get('page')).toBe('2');
    });

    it('filters by inbox, sender, subject with wildcards, search', async () => {
      const billing = await json(await api('/emails?inbox=billing@acme.test'));
      expect(billing.meta.total).toBe(6);
      expect(billing.data.every((e: any) => e.inbox.email === 'billing@acme.test')).toBe(true);

      const alerts = await json(await api('/emails?sender=alerts@monitor.test'));
      expect(alerts.meta.total).toBe(8);

      const exact = await json(await api(`/emails?subject=${encodeURIComponent('Quick question')}`));
      expect(exact.data.map((e: any) => e.subject)).toEqual(['Quick question']);
      const partialWithoutWildcard = await json(await api('/emails?subject=Quick'));
      expect(partialWithoutWildcard.meta.total).toBe(0);
      const wildcard = await json(await api(`/emails?subject=${encodeURIComponent('invoice INV-2026-*')}`));
      expect(wildcard.meta.total).toBe(6);

      const search = await json(await api('/emails?search=digest'));
      expect(search.data.map((e: any) => e.sender.email)).toEqual(['news@digest.test']);
      const searchSubject = await json(await api('/emails?search=MEETING%20NOTES'));
      expect(searchSubject.meta.total).toBe(6);
    });

    it('filters by since and until, both exclusive', async () => {
      const all = await json(await api('/emails?limit=100'));
      const pivot = all.data[10].created_at as string;
      const since = await json(await api(`/emails?limit=100&since=${encodeURIComponent(pivot)}`));
      expect(since.data.every((e: any) => Date.parse(e.created_at) > Date.parse(pivot))).toBe(true);
      expect(since.meta.total).toBe(10);
      const until = await json(await api(`/emails?limit=100&until=${encodeURIComponent(pivot)}`));
      expect(until.data.every((e: any) => Date.parse(e.created_at) < Date.parse(pivot))).toBe(true);
      expect(until.meta.total).toBe(30);
      const bad = await api('/emails?since=yesterday-ish');
      expect(bad.status).toBe(422);
      expect((await json(bad)).errors.since).toBeDefined();
    });

    it('filters unread and favorite', async () => {
      const before = await json(await api('/emails?unread=1&limit=100'));
      const target = before.data[0];
      await api(`/emails/${target.id}`); // the JSON read marks it read
      const after = await json(await api('/emails?unread=true&limit=100'));
      expect(after.meta.total).toBe(before.meta.total - 1);
      expect(after.data.some((e: any) => e.id === target.id)).toBe(false);
      expect((await json(await api('/emails?unread=0&limit=100'))).meta.total).toBe(41);

      expect((await api(`/emails/${target.id}/favorites`, { method: 'POST' })).status).toBe(200);
      const favorites = await json(await api('/emails?favorite=1'));
      expect(favorites.data.map((e: any) => e.id)).toEqual([target.id]);
      expect((await api(`/emails/${target.id}/favorites`, { method: 'DELETE' })).status).toBe(200);
      expect((await json(await api('/emails?favorite=1'))).meta.total).toBe(0);
    });

    it('dates seeded mail by its Date header', async () => {
      const body = await json(await api(`/emails?subject=${encodeURIComponent('Cannot log in after password reset')}`));
      expect(body.data[0].created_at).toBe('2026-11-01T09:00:00+00:00');
      expect(body.data[0].sender).toMatchObject({ display_name: 'Ana García', email: 'ana.garcia@example.es' });
    });

    it('answers 404 for an unknown inbox or sender', async () => {
      expect((await api('/emails?inbox=nobody@acme.test')).status).toBe(404);
      expect((await api('/emails?sender=nobody@acme.test')).status).toBe(404);
    });
  });

  describe('GET /emails/{id} content negotiation', () => {
    let both: any;
    let textOnly: any;
    let htmlOnly: any;

    beforeAll(async () => {
      const all = (await json(await api('/emails?limit=100'))).data;
      both = all.find((e: any) => e.subject === 'Feature request: dark mode');
      textOnly = all.find((e: any) => e.subject === 'Quick question');
      htmlOnly = all.find((e: any) => e.subject === 'Release notes 2.0');
    });

    it('gives the vendor JSON, marks the email read, and says so in its type', async () => {
      expect(both.read).toBeNull();
      const response = await api(`/emails/${both.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain(VND);
      const body = await json(response);
      expect(body.data.id).toBe(both.id);
      expect(Date.parse(body.data.read)).not.toBeNaN();
      expect(body.data).toMatchObject({ has_html: true, has_text: true, favorite: false });
    });

    it('gives plain application/json too', async () => {
      const response = await api(`/emails/${textOnly.id}`, { accept: 'application/json' });
      expect(response.headers.get('content-type')).toContain('application/json');
      expect((await json(response)).data.subject).toBe('Quick question');
    });

    it('gives the HTML, text and raw bodies', async () => {
      const html = await api(`/emails/${both.id}`, { accept: 'text/html' });
      expect(html.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      expect(await html.text()).toContain('<strong>Feature request: dark mode</strong>');
      const text = await api(`/emails/${both.id}`, { accept: 'text/plain' });
      expect(text.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
      expect(await text.text()).toContain('Feature request: dark mode. Details follow.');
      const raw = await api(`/emails/${both.id}`, { accept: 'message/rfc2822' });
      expect(raw.headers.get('content-type')).toContain('message/rfc2822');
      const rawText = await raw.text();
      expect(rawText).toMatch(/^X-Demo: inbox-desk/m);
      expect(rawText).toContain('Subject: Feature request: dark mode');
    });

    it('honours q-values and wildcards, breaking ties by the service order', async () => {
      const preferText = await api(`/emails/${both.id}`, { accept: 'text/html;q=0.4, text/plain;q=0.9' });
      expect(preferText.headers.get('content-type')).toContain('text/plain');
      const anyText = await api(`/emails/${both.id}`, { accept: 'text/*' });
      expect(anyText.headers.get('content-type')).toContain('text/html');
      const anyTextOnly = await api(`/emails/${textOnly.id}`, { accept: 'text/*' });
      expect(anyTextOnly.headers.get('content-type')).toContain('text/plain');
      const anything = await api(`/emails/${htmlOnly.id}`, { accept: '*/*' });
      expect(anything.headers.get('content-type')).toContain('text/html');
      const refusedHtml = await api(`/emails/${both.id}`, { accept: 'text/html;q=0, */*;q=0.1' });
      expect(refusedHtml.headers.get('content-type')).toContain('text/plain');
    });

    it('does not offer a format the email lacks: 406 with the list', async () => {
      const response = await api(`/emails/${textOnly.id}`, { accept: 'text/html' });
      expect(response.status).toBe(406);
      const body = await json(response);
      expect(body.error).toContain("Not acceptable 'Accept' header");
      expect(body.error).toContain('text/plain');
      expect(body.error).not.toContain('text/html');
      expect((await api(`/emails/${htmlOnly.id}`, { accept: 'text/plain' })).status).toBe(406);
      expect((await api(`/emails/${both.id}`, { accept: 'image/png' })).status).toBe(406);
    });

    it('answers 404 for an unknown id', async () => {
      const response = await api('/emails/00000000-0000-4000-8000-000000000000');
      expect(response.status).toBe(404);
      expect((await json(response)).message).toContain('No query results');
    });
  });

  describe('attachments and deletion', () => {
    it('serves an attachment with its type and sizes', async () => {
      const invoices = await json(await api('/emails?inbox=billing@acme.test'));
      const email = invoices.data.find((e: any) => e.attachments.some((a: any) => a.content_type === 'image/png'));
      const png = email.attachments.find((a: any) => a.content_type === 'image/png');
      expect(png).toMatchObject({ file_name: 'logo.png', email_id: email.id, size_for_human: `${png.size_in_bytes}.00B` });
      expect(png.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const response = await api(`/emails/${email.id}/attachments/${png.id}`, { accept: '*/*' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect(bytes.length).toBe(png.size_in_bytes);
      expect((await api(`/emails/${email.id}/attachments/nope`)).status).toBe(404);
    });

    it('deletes an email', async () => {
      const [id] = await service.inject(rawMail({ subject: 'Delete me' }), { teamId: 'alpha' });
      expect((await api(`/emails/${id}`, { method: 'DELETE' })).status).toBe(200);
      expect((await api(`/emails/${id}`)).status).toBe(404);
      expect((await api(`/emails/${id}`, { method: 'DELETE' })).status).toBe(404);
    });
  });

  describe('automations', () => {
    const put = (id: string, body: unknown, type = VND) =>
      api(`/automations/${id}`, {
        method: 'PUT',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'Content-Type': type },
      });

    it('lists the seeded automations', async () => {
      const body = await json(await api('/automations'));
      expect(body.data).toHaveLength(3);
      expect(body.data[0]).toMatchObject({ emails_received: 0, in_error: false, payload_format: 'json' });
    });

    it('updates with the vendor type and with application/json; omitted fields keep their value', async () => {
      const [first] = (await json(await api('/automations'))).data;
      const response = await put(first.id, { title: 'Renamed', payload_format: 'raw' });
      expect(response.status).toBe(200);
      const body = await json(response);
      expect(body.data).toMatchObject({ id: first.id, title: 'Renamed', payload_format: 'raw', inbox: first.inbox });
      const viaJson = await put(first.id, { title: 'Again', subject: '' }, 'application/json');
      expect(viaJson.status).toBe(200);
      expect((await json(viaJson)).data).toMatchObject({ title: 'Again', subject: null });
    });

    it('enforces every rule with 422 and changes nothing on failure', async () => {
      const [, second] = (await json(await api('/automations'))).data;
      const cases: [unknown, string][] = [
        [{ sender: 'a@b.test' }, 'title'],
        [{ title: '   ' }, 'title'],
        [{ title: 'x', sender: 'not an email' }, 'sender'],
        [{ title: 'x', inbox: 'nope' }, 'inbox'],
        [{ title: 'x', action_url: 'not a url' }, 'action_url'],
        [{ title: 'x', action_url: 'ftp://files.test/x' }, 'action_url'],
        [{ title: 'x', payload_format: 'xml' }, 'payload_format'],
        [{ title: 'x', has_attachments: 'yes' }, 'has_attachments'],
        [{ title: 'x', action_delete_email: 1 }, 'action_delete_email'],
        [{ title: 'x', subject: '(unclosed' }, 'subject'],
      ];
      for (const [body, field] of cases) {
        const response = await put(second.id, body);
        expect(response.status, JSON.stringify(body)).toBe(422);
        const answer = await json(response);
        expect(answer.errors[field], JSON.stringify(body)).toBeInstanceOf(Array);
        expect(typeof answer.message).toBe('string');
      }
      const after = (await json(await api('/automations'))).data.find((a: any) => a.id === second.id);
      expect(after).toEqual(second);
    });

    it('answers 404, 415, 400 and 413 where they belong', async () => {
      const [first] = (await json(await api('/automations'))).data;
      expect((await put('00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(404);
      expect((await put(first.id, 'title=x', 'application/x-www-form-urlencoded')).status).toBe(415);
      expect((await put(first.id, '{"title": ', VND)).status).toBe(400);
      const huge = await put(first.id, { title: 'x', action_secret_token: 'a'.repeat(100_000) });
      expect(huge.status).toBe(413);
    });

    it('creates and deletes', async () => {
      const created = await api('/automations', {
        method: 'POST',
        body: JSON.stringify({ title: 'New one', subject: 'hello' }),
        headers: { 'Content-Type': VND },
      });
      expect(created.status).toBe(201);
      const { data } = await json(created);
      expect(data).toMatchObject({ title: 'New one', subject: 'hello', has_attachments: false, payload_format: 'json' });
      expect((await api(`/automations/${data.id}`, { method: 'DELETE' })).status).toBe(200);
      expect((await api(`/automations/${data.id}`, { method: 'DELETE' })).status).toBe(404);
    });
  });

  describe('authentication', () => {
    it('answers 401 without or with a wrong token', async () => {
      const none = await fetch(`${service.baseUrl}/api/teams/alpha/emails`);
      expect(none.status).toBe(401);
      expect((await client(service, 'alpha', 'wrong')('/emails')).status).toBe(401);
    });

    it("never shows one team's data to another team's token", async () => {
      const cross = await client(service, 'beta', 'alpha-token')('/emails');
      expect(cross.status).toBe(403);
      expect(await cross.text()).not.toContain('Beta only secret');
      const own = await json(await client(service, 'beta', 'beta-token')('/emails'));
      expect(own.data.map((e: any) => e.subject)).toEqual(['Beta only secret']);
      const alphaList = await json(await api('/emails?search=Beta%20only'));
      expect(alphaList.meta.total).toBe(0);
    });
  });
});

describe('rate limit', () => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token' }], rateLimit: 3 });
  });
  afterAll(() => service.close());

  it('answers 429 with Retry-After past the limit and counts on every answer', async () => {
    const api = client(service);
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await api('/emails');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('3');
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await api('/emails');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts per team after authentication: made-up tokens get 401 and no window, and do not spend the team’s', async () => {
    const limited = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token' }, { id: 'beta', token: 'beta-token' }], rateLimit: 2 });
    try {
      const as = (token: string, team: string) => fetch(`${limited.baseUrl}/api/teams/${team}/emails`, { headers: { Authorization: `Bearer ${token}` } });
      // A flood of made-up tokens: each one refused before the limiter, none with a rate header.
      for (let i = 0; i < 20; i++) {
        const refused = await as(`made-up-${i}`, 'alpha');
        expect(refused.status).toBe(401);
        expect(refused.headers.get('x-ratelimit-remaining')).toBeNull();
      }
      // The team's own window is whole, and spending it does not touch another team's.
      expect((await as('alpha-token', 'alpha')).headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await as('alpha-token', 'alpha')).headers.get('x-ratelimit-remaining')).toBe('0');
      const over = await as('alpha-token', 'alpha');
      expect(over.status).toBe(429);
      expect(await over.json()).toEqual({ message: 'Too Many Attempts.' });
      expect((await as('beta-token', 'beta')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('is off by default', async () => {
    const open = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token' }] });
    try {
      const response = await client(open)('/emails');
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    } finally {
      await open.close();
    }
  });
});

describe('MIME parsing', () => {
  it('decodes encoded words and legacy charsets, and sizes the raw message', async () => {
    const service = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token' }] });
    try {
      const raw = Buffer.concat([
        Buffer.from(
          'From: =?ISO-8859-1?Q?Andr=E9?= <andre@example.test>\r\nTo: support@acme.test\r\n' +
            'Subject: =?ISO-8859-1?Q?Caf=E9_cr=E8me?=\r\nDate: Mon, 02 Nov 2026 10:00:00 +0000\r\n' +
            'MIME-Version: 1.0\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n',
        ),
        Buffer.from([0x44, 0xe9, 0x6a, 0xe0, 0x20, 0x76, 0x75, 0x0d, 0x0a]), // "Déjà vu" in Latin-1
      ]);
      const [id] = await service.inject(raw);
      const api = client(service);
      const email = (await json(await api(`/emails/${id}`))).data;
      expect(email.subject).toBe('Café crème');
      expect(email.sender.display_name).toBe('André');
      expect(email.size_in_bytes).toBe(raw.length);
      expect(email).toMatchObject({ has_text: true, has_html: false });
      expect(await (await api(`/emails/${id}`, { accept: 'text/plain' })).text()).toContain('Déjà vu');
    } finally {
      await service.close();
    }
  });
});

describe('mail in over SMTP', () => {
  it('takes a message over SMTP, one email per envelope recipient (Cc included)', async () => {
    const service = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token' }], smtpPort: 0 });
    try {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.smtpPort!, secure: false, ignoreTLS: true });
      await transport.sendMail({
        from: '"Zoë Example" <zoe@example.test>',
        to: ['one@acme.test', 'two@acme.test'],
        cc: 'Carbon <cc@acme.test>',
        subject: '=?UTF-8?B?w5xiZXIgU01UUA==?=',
        text: 'Hallo über SMTP',
        html: '<p>Hallo <b>über</b> SMTP</p>',
        attachments: [{ filename: 'data.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' }],
      });
      const body = await json(await client(service)('/emails'));
      expect(body.data.map((e: any) => e.inbox.email).sort()).toEqual(['cc@acme.test', 'one@acme.test', 'two@acme.test']);
      const email = body.data.find((e: any) => e.inbox.email === 'one@acme.test');
      expect(email.subject).toBe('Über SMTP');
      expect(email.sender).toMatchObject({ display_name: 'Zoë Example', email: 'zoe@example.test' });
      expect(email.carbon_copies).toEqual([{ display_name: 'Carbon', email: 'cc@acme.test' }]);
      expect(email).toMatchObject({ has_html: true, has_text: true });
      expect(email.attachments[0]).toMatchObject({ file_name: 'data.csv', content_type: 'text/csv', size_in_bytes: 8 });
      expect(Date.now() - Date.parse(email.created_at)).toBeLessThan(60_000);
    } finally {
      await service.close();
    }
  });
});

describe('SMTP pipelining (RFC 2920)', () => {
  it('answers MAIL, RCPT and DATA sent together, in order, and takes the message', async () => {
    const service = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token' }], smtpPort: 0 });
    const socket = connect(service.smtpPort!, '127.0.0.1');
    try {
      const reads: string[] = [];
      let waiting: ((chunk: string) => void) | null = null;
      socket.on('data', (chunk: Buffer) => (waiting ? waiting(chunk.toString()) : reads.push(chunk.toString())));
      const next = () => (reads.length > 0 ? Promise.resolve(reads.shift()!) : new Promise<string>((resolve) => (waiting = (chunk) => ((waiting = null), resolve(chunk)))));
      expect(await next()).toMatch(/^220 /);
      socket.write('EHLO client.test\r\n');
      let ehlo = await next();
      while (!/^250 /m.test(ehlo)) ehlo += await next();
      expect(ehlo).toContain('PIPELINING');
      socket.write('MAIL FROM:<a@example.test>\r\nRCPT TO:<ops@acme.test>\r\nDATA\r\n');
      let answers = await next();
      while (!/^354 /m.test(answers)) answers += await next();
      expect(answers.split('\r\n').filter(Boolean).map((line) => line.slice(0, 3))).toEqual(['250', '250', '354']);
      socket.write('Subject: Pipelined\r\n\r\nbody\r\n.\r\nQUIT\r\n');
      let rest = await next();
      while (!/^221 /m.test(rest)) rest += await next();
      expect(rest).toMatch(/^250 /);
      expect(service.service.team('alpha').query().map((e) => e.subject)).toEqual(['Pipelined']);
    } finally {
      socket.destroy();
      await service.close();
    }
  });
});

describe('automations call their webhooks', () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: IncomingMessage['headers']; body: Buffer; path: string }[] = [];
  let failNext = false;
  let service: RunningService;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks), path: request.url ?? '' });
        response.statusCode = request.url?.includes('fail') || failNext ? 500 : 200;
        response.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const address = receiver.address();
    receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));
  afterEach(async () => {
    await service.close();
    received.length = 0;
    failNext = false;
  });

  async function withAutomation(body: Record<string, unknown>) {
    service = await startReferenceService({
      teams: [{ id: 'alpha', token: 'alpha-token' }],
      webhookTimeoutMs: 2000,
      allowPrivateWebhooks: true, // the receiver is on loopback
    });
    api = client(service);
    const response = await api('/automations', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Content-Type': VND },
    });
    expect(response.status).toBe(201);
    return (await json(response)).data;
  }

  it('posts the Email resource as json, with criteria headers, token and signature', async () => {
    const automation = await withAutomation({
      title: 'Invoices',
      subject: '^invoice',
      sender: 'billing@vendor.test',
      has_attachments: true,
      action_url: `${receiverUrl}/hook`,
      action_secret_token: 's3cret',
      payload_format: 'json',
    });
    const [id] = await service.inject(
      rawMail({
        from: 'billing@vendor.test',
        subject: 'Invoice 42',
        attachment: { name: 'a.pdf', type: 'application/pdf', content: '%PDF' },
      }),
    );
    await service.inject(rawMail({ from: 'billing@vendor.test', subject: 'Invoice without file' }));
    await service.inject(rawMail({ from: 'someone@else.test', subject: 'Invoice 43', attachment: { name: 'b.pdf', type: 'application/pdf', content: '%PDF' } }));
    await service.service.settled();

    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers['x-service-title']).toBe('Invoices');
    expect(call!.headers['x-service-subject']).toBe('HIT');
    expect(call!.headers['x-service-sender']).toBe('HIT');
    expect(call!.headers['x-service-has-attachments']).toBe('HIT');
    expect(call!.headers['x-service-inbox']).toBeUndefined();
    expect(call!.headers['x-service-secret-token']).toBe('s3cret');
    expect(call!.headers['x-service-signature']).toBe(signPayload(call!.body, 's3cret'));
    const payload = JSON.parse(call!.body.toString());
    expect(payload.data).toMatchObject({ id, subject: 'Invoice 42' });
    expect(payload.data.html).toBeUndefined();

    const after = (await json(await api('/automations'))).data.find((a: any) => a.id === automation.id);
    expect(after).toMatchObject({ emails_received: 1, in_error: false });
  });

  it('posts the raw message for raw, without a token header when none is set', async () => {
    await withAutomation({ title: 'Raw', inbox: 'support@acme.test', action_url: `${receiverUrl}/raw`, payload_format: 'raw' });
    await service.inject(rawMail({ subject: 'Raw please', text: 'raw body' }));
    await service.service.settled();
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['content-type']).toBe('message/rfc2822');
    expect(received[0]!.headers['x-service-inbox']).toBe('HIT');
    expect(received[0]!.headers['x-service-secret-token']).toBeUndefined();
    expect(received[0]!.headers['x-service-signature']).toBeUndefined();
    expect(received[0]!.body.toString()).toContain('Subject: Raw please');
  });

  it('adds the bodies for json_with_bodies', async () => {
    await withAutomation({ title: 'Bodies', subject: 'bodies', action_url: `${receiverUrl}/b`, payload_format: 'json_with_bodies', action_secret_token: 'k' });
    await service.inject(rawMail({ subject: 'With bodies', text: 'plain words', html: '<p>html words</p>' }));
    await service.service.settled();
    const payload = JSON.parse(received[0]!.body.toString());
    expect(payload.data.text).toContain('plain words');
    expect(payload.data.html).toContain('<p>html words</p>');
    expect(payload.data.has_html).toBe(true);
    expect(received[0]!.headers['x-service-signature']).toBe(signPayload(received[0]!.body, 'k'));
  });

  it('deletes the email after a good delivery, keeps it and flags in_error after a bad one', async () => {
    const automation = await withAutomation({ title: 'Consume', subject: 'consume', action_url: `${receiverUrl}/ok`, action_delete_email: true });
    const [gone] = await service.inject(rawMail({ subject: 'consume me' }));
    await service.service.settled();
    expect((await api(`/emails/${gone}`)).status).toBe(404);

    failNext = true;
    const [kept] = await service.inject(rawMail({ subject: 'consume me too' }));
    await service.service.settled();
    expect((await api(`/emails/${kept}`)).status).toBe(200);
    const state = (await json(await api('/automations'))).data.find((a: any) => a.id === automation.id);
    expect(state).toMatchObject({ emails_received: 2, in_error: true });

    failNext = false;
    await service.inject(rawMail({ subject: 'consume again' }));
    await service.service.settled();
    const healed = (await json(await api('/automations'))).data.find((a: any) => a.id === automation.id);
    expect(healed.in_error).toBe(false);
  });

  it('never blocks mail on a webhook that does not answer', async () => {
    await withAutomation({ title: 'Slow', subject: '.*', action_url: 'http://127.0.0.1:9/nothing-listens' });
    const started = Date.now();
    const [id] = await service.inject(rawMail({ subject: 'arrives anyway' }));
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await api(`/emails/${id}`)).status).toBe(200);
    await service.service.settled();
    expect((await json(await api('/automations'))).data[0].in_error).toBe(true);
  });
});

describe('persistence with a data folder', () => {
  it('keeps emails, marks and automations across restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'inbox-desk-data-'));
    try {
      const teams = [{ id: 'alpha', token: 'alpha-token' }];
      const first = await startReferenceService({ teams, dataDir, seedDir: DEMO });
      const api = client(first);
      const page = await json(await api('/emails?limit=1'));
      const id = page.data[0].id;
      await api(`/emails/${id}`);
      await api(`/emails/${id}/favorites`, { method: 'POST' });
      await first.inject(rawMail({ subject: 'Live one' }));
      await first.close();

      const second = await startReferenceService({ teams, dataDir, seedDir: DEMO });
      try {
        const again = client(second);
        const list = await json(await again('/emails?limit=100'));
        expect(list.meta.total).toBe(42);
        const favorite = await json(await again('/emails?favorite=1'));
        expect(favorite.data.map((e: any) => e.id)).toEqual([id]);
        expect(favorite.data[0].read).not.toBeNull();
        expect((await json(await again('/automations'))).data).toHaveLength(3);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('health', () => {
  it('answers whether the service is up and how much mail it holds, without a token', async () => {
    const service = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token' }] });
    try {
      await service.inject('From: a@acme.test\r\nTo: b@acme.test\r\nSubject: one\r\n\r\nx\r\n');
      const response = await fetch(`${service.baseUrl}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', emails: 1 });
    } finally {
      await service.close();
    }
  });
});
