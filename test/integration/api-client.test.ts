import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client.ts';
import { CLIP_CHARS } from '../../src/shared/domain/clip.ts';
import { canPrefetch } from '../../src/shared/domain/rate-budget.ts';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { failure } from '../support/failure.ts';
import { rawMail } from '../support/mail.ts';
import { EMPTY_PAGE, sendJson, stubServer, type StubServer } from '../support/stub-server.ts';

const VND = 'application/vnd.service.v1+json';
const fast = { timeoutMs: 1500, backoffBaseMs: 5, maxRetryWaitMs: 3000 };


describe('API client against the reference service', () => {
  let service: RunningService;
  let client: ServiceClient;

  beforeAll(async () => {
    service = await startReferenceService({
      teams: [{ id: 'alpha', token: 'alpha-token-123' }],
      seedDir: resolve('resources/demo/mail'),
    });
    client = new ServiceClient({ baseUrl: service.baseUrl, teamId: 'alpha', token: 'alpha-token-123' }, fast);
  });
  afterAll(() => service.close());

  it('lists with filters and pages, normalised', async () => {
    const page = await client.listEmails({ limit: 10, page: 2 });
    expect(page.meta).toMatchObject({ current_page: 2, per_page: 10, total: 41, from: 11, to: 20 });
    expect(page.data).toHaveLength(10);
    const billing = await client.listEmails({ inbox: 'billing@acme.test' });
    expect(billing.data.every((e) => e.inbox.email === 'billing@acme.test')).toBe(true);
    const attachment = billing.data.flatMap((e) => e.attachments)[0]!;
    // The zoneless attachment timestamp became ISO UTC.
    expect(attachment.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
  });

  it('reads an email (marking it read) and each body format, from cache the second time', async () => {
    const [id] = await service.inject(rawMail({ subject: 'Formats', text: 'plain <b>', html: '<p>rich</p>' }));
    const email = await client.getEmail(id!);
    expect(email.read).not.toBeNull();
    expect((await client.getEmailBody(id!, 'html')).content).toBe('<p>rich</p>');
    expect((await client.getEmailBody(id!, 'text')).content).toContain('plain <b>');
    const raw = await client.getEmailBody(id!, 'raw');
    expect(raw.content).toContain('Subject: Formats');
    expect(raw.contentType).toContain('message/rfc2822');

    await service.close();
    // Going back to an email costs no request: the server is gone, the cache answers.
    expect((await client.getEmail(id!)).id).toBe(id);
    expect((await client.getEmailBody(id!, 'html')).content).toBe('<p>rich</p>');
    service = await startReferenceService({ teams: [{ id: 'alpha', token: 'alpha-token-123' }], seedDir: resolve('resources/demo/mail'), port: Number(new URL(service.baseUrl).port) });
  });

  it('stars, unstars, saves an attachment and deletes', async () => {
    const [id] = await service.inject(
      rawMail({ subject: 'Ops', attachment: { name: 'a.txt', type: 'text/plain', content: 'attached bytes' } }),
    );
    await client.setFavorite(id!, true);
    expect((await client.listEmails({ favorite: true }, { fresh: true })).data.map((e) => e.id)).toEqual([id]);
    await client.setFavorite(id!, false);
    const email = await client.getEmail(id!);
    const file = await client.getAttachment(id!, email.attachments[0]!.id);
    expect(file.bytes.toString()).toBe('attached bytes');
    await client.deleteEmail(id!);
    expect((await failure(client.getEmail(id!))).kind).toBe('not-found');
  });

  it('lists, creates, updates and deletes automations', async () => {
    const before = await client.listAutomations();
    expect(before).toHaveLength(3);
    const created = await client.createAutomation({
      title: 'Created', sender: null, inbox: null, subject: 'x', has_attachments: false,
      action_url: null, action_email: null, action_secret_token: null, action_delete_email: false, payload_format: 'raw',
    });
    expect(created).toMatchObject({ title: 'Created', payload_format: 'raw', emails_received: 0 });
    const updated = await client.updateAutomation(created.id, { ...created, title: 'Updated', payload_format: 'json' } as never);
    expect(updated).toMatchObject({ id: created.id, title: 'Updated', payload_format: 'json' });
    await client.deleteAutomation(created.id);
    expect((await client.listAutomations()).map((a) => a.id)).not.toContain(created.id);
  });

  it('maps 401, 404, 406 and 422 to their kinds, with field errors', async () => {
    const wrong = new ServiceClient({ baseUrl: service.baseUrl, teamId: 'alpha', token: 'nope' }, fast);
    expect((await failure(wrong.listEmails({}))).kind).toBe('auth');
    expect((await failure(client.getEmail('00000000-0000-4000-8000-000000000000'))).kind).toBe('not-found');
    const [textOnly] = await service.inject(rawMail({ subject: 'text only', text: 'x' }));
    const notAcceptable = await failure(client.getEmailBody(textOnly!, 'html'));
    expect(notAcceptable.kind).toBe('not-acceptable');
    expect(notAcceptable.status).toBe(406);
    const [automation] = await client.listAutomations();
    const invalid = await failure(client.updateAutomation(automation!.id, { title: 'x', payload_format: 'xml' } as never));
    expect(invalid.kind).toBe('validation');
    expect(invalid.fields?.payload_format?.[0]).toMatch(/payload format/i);
    // An inbox with no mail yet is an empty list that says so, not an error.
    expect(await client.listEmails({ inbox: 'nobody@nowhere.test' })).toMatchObject({
      data: [],
      meta: { total: 0 },
      unknownAddress: { field: 'inbox', value: 'nobody@nowhere.test' },
    });
  });

  it('maps 403 for another team', async () => {
    const other = new ServiceClient({ baseUrl: service.baseUrl, teamId: 'beta', token: 'alpha-token-123' }, fast);
    expect((await failure(other.listEmails({}))).kind).toBe('forbidden');
  });
});

describe('API client against servers that misbehave', () => {
  let stub: StubServer | null = null;
  afterEach(async () => {
    await stub?.close();
    stub = null;
  });
  const clientFor = (url: string, http = {}) => new ServiceClient({ baseUrl: url, teamId: 't', token: 'secret-token-xyz' }, { ...fast, ...http });

  it('sends the bearer token and the vendor type, under /api/teams/{team}', async () => {
    stub = await stubServer((_q, r) => sendJson(r, 200, EMPTY_PAGE));
    await clientFor(`${stub.url}/base/`).listEmails({ search: 'x y', unread: true });
    const [request] = stub.requests;
    expect(request!.url).toBe('/base/api/teams/t/emails?search=x+y&unread=1');
    expect(request!.headers.authorization).toBe('Bearer secret-token-xyz');
    expect(request!.headers.accept).toBe(VND);
  });

  it('times out a server that answers too slowly', async () => {
    stub = await stubServer((_q, r) => setTimeout(() => sendJson(r, 200, EMPTY_PAGE), 1500));
    const error = await failure(clientFor(stub.url, { timeoutMs: 200 }).listEmails({}));
    expect(error.kind).toBe('timeout');
  });

  it('reports a dropped connection', async () => {
    stub = await stubServer((q) => q.socket.destroy());
    const error = await failure(clientFor(stub.url, { maxRetries: 0 }).listEmails({}));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/dropped|reach/);
  });

  it('reports a refused connection and an unknown host', async () => {
    const closed = await stubServer(() => undefined);
    await closed.close();
    expect((await failure(clientFor(closed.url).listEmails({}))).message).toMatch(/refused/);
    expect((await failure(clientFor('http://no-such-host.invalid').listEmails({}))).message).toMatch(/Cannot find the server/);
  });

  it('reports a TLS failure', async () => {
    stub = await stubServer((_q, r) => sendJson(r, 200, EMPTY_PAGE), { tls: true });
    const error = await failure(clientFor(stub.url).listEmails({}));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/secure connection/);
  });

  it('refuses malformed JSON and answers of the wrong shape', async () => {
    stub = await stubServer((_q, r, i) => sendJson(r, 200, i === 0 ? '{"data": [' : { data: 'nope' }));
    const client = clientFor(stub.url);
    const broken = await failure(client.listEmails({}));
    expect(broken).toMatchObject({ kind: 'bad-response' });
    expect(broken.message).toMatch(/not JSON/);
    const shape = await failure(client.listEmails({ page: 2 }));
    expect(shape.kind).toBe('bad-response');
    expect(shape.message).toMatch(/expected shape/);
  });

  it('checks a record again only when the server changed it, and names the bad field of a page', async () => {
    const record = (read: string | null, created = '2026-11-02T10:00:00+00:00') => ({
      id: 'e-1',
      sender: { email: 'a@x.test' },
      inbox: { email: 'b@x.test' },
      subject: 'Hello',
      created_at: created,
      read,
    });
    const other = { ...record(null), id: 'e-2', subject: 'Newer' };
    const answers = [[record(null)], [record(null)], [other, record(null)], [record('2026-11-02 11:00:00')], [record(null, 'not a date')]];
    stub = await stubServer((_q, r, i) => sendJson(r, 200, { ...EMPTY_PAGE, data: answers[i] }));
    const client = clientFor(stub.url);
    const firstPage = await client.listEmails({}, { fresh: true });
    const first = firstPage.data[0]!;
    // The same bytes again: the page made of them last time.
    expect(await client.listEmails({}, { fresh: true })).toBe(firstPage);
    // A new email above it: the page is read anew, the unchanged record reused.
    const shifted = await client.listEmails({}, { fresh: true });
    expect(shifted.data.map((e) => e.subject)).toEqual(['Newer', 'Hello']);
    expect(shifted.data[1]).toBe(first);
    const changed = (await client.listEmails({}, { fresh: true })).data[0]!;
    expect(changed.read).toBe('2026-11-02T11:00:00.000Z');
    expect(first.read).toBeNull();
    const bad = await failure(client.listEmails({}, { fresh: true }));
    expect(bad.message).toMatch(/data\.0\.created_at: not a date/);
  });

  it('refuses a 10 MB body, with or without a Content-Length', async () => {
    const big = `{"data": [], "pad": "${'x'.repeat(10_000_000)}"}`;
    stub = await stubServer((_q, r, i) => {
      if (i === 0) return sendJson(r, 200, big);
      r.writeHead(200, { 'Content-Type': 'application/json' });
      // Chunked, no length: the cap is enforced while streaming.
      for (let k = 0; k < 10; k++) r.write('x'.repeat(1_000_000));
      r.end();
    });
    const client = clientFor(stub.url);
    expect((await failure(client.listEmails({}))).message).toMatch(/more than 5 MB/);
    expect((await failure(client.listEmails({ page: 2 }))).message).toMatch(/more than 5 MB/);
  });

  it('reads no byte past a declared Content-Length, whatever the socket sends after it', async () => {
    const { createServer } = await import('node:net');
    const page = JSON.stringify(EMPTY_PAGE);
    // Raw bytes: a page of the length it declares, then 10 MB more on the same socket.
    const liar = createServer((socket) => {
      socket.once('data', () => {
        socket.on('error', () => undefined);
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(page)}\r\n\r\n${page}`);
        socket.end('x'.repeat(10_000_000));
      });
    });
    await new Promise<void>((done) => liar.listen(0, '127.0.0.1', done));
    try {
      const { port } = liar.address() as { port: number };
      const listed = await clientFor(`http://127.0.0.1:${port}`).listEmails({});
      expect(listed.data).toEqual([]);
      expect(listed.meta.total).toBe(EMPTY_PAGE.meta.total);
    } finally {
      liar.close();
    }
  });

  it('never keeps a page asked for before a write and answered after it: the next list asks again', async () => {
    let starred = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const record = () => ({
      id: 'e1', sender: { id: 's', email: 'a@b.test', display_name: '' }, inbox: { id: 'i', email: 'i@b.test', display_name: '' },
      carbon_copies: [], subject: 'Hi', created_at: '2026-11-27T10:00:00Z', read: null, favorite: starred, has_html: false, has_text: true, size_in_bytes: 10, attachments: [],
    });
    let lists = 0;
    stub = await stubServer((request, response) => {
      if (request.method === 'GET' && request.url!.includes('/emails')) {
        // The first list is read now (the star not yet set) and answered only later.
        const page = { data: [record()], meta: { current_page: 1, last_page: 1, per_page: 25, total: 1 } };
        if (++lists === 1) void held.then(() => sendJson(response, 200, page));
        else sendJson(response, 200, page);
        return;
      }
      starred = request.method === 'POST';
      response.writeHead(204).end();
    });
    const client = clientFor(stub.url);
    const early = client.listEmails({});
    await new Promise((resolve) => setTimeout(resolve, 50));
    await client.setFavorite('e1', true);
    release();
    // The late page is shown as the server said it then…
    expect((await early).data[0]!.favorite).toBe(false);
    // …but not kept: the next list (well within the cache's freshness) asks the server, which has the star.
    expect((await client.listEmails({})).data[0]!.favorite).toBe(true);
    expect(stub.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('tolerates extra fields, nulls and both timestamp forms', async () => {
    const email = {
      id: 'e1', surprise: { nested: true },
      sender: { id: 's', email: 'a@b.test', display_name: null, created_at: '2018-01-19 12:23:27', updated_at: null },
      inbox: { email: 'i@b.test' },
      carbon_copies: null, subject: null, created_at: '2018-01-19T12:23:27+02:00', read: null,
      favorite: null, has_html: true, has_text: false, size_in_bytes: '1200', attachments: null,
    };
    stub = await stubServer((_q, r) => sendJson(r, 200, { data: [email], meta: { current_page: 1, last_page: 1, per_page: '25', total: 1 } }));
    const page = await clientFor(stub.url).listEmails({});
    expect(page.data[0]).toMatchObject({
      id: 'e1', subject: '', carbon_copies: [], attachments: [], favorite: false, size_in_bytes: 1200,
      created_at: '2018-01-19T10:23:27.000Z',
    });
    expect(page.data[0]!.sender.created_at).toBe('2018-01-19T12:23:27.000Z');
    expect(page.links).toEqual({ first: null, last: null, prev: null, next: null });
    expect('surprise' in page.data[0]!).toBe(false);
  });

  it('waits out a 429 with Retry-After, then succeeds; tracks the budget', async () => {
    const waits: number[] = [];
    stub = await stubServer((_q, r, i) =>
      i === 0
        ? sendJson(r, 429, { message: 'Too Many Attempts.' }, { 'Retry-After': '1', 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0' })
        : sendJson(r, 200, EMPTY_PAGE, { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '5' }),
    );
    const client = clientFor(stub.url, { sleep: async (ms: number) => void waits.push(ms) });
    const seen: (number | null)[] = [];
    client.onRateLimit((state) => seen.push(state.remaining));
    await client.listEmails({});
    expect(stub.requests).toHaveLength(2);
    expect(waits).toEqual([1000]);
    expect(seen).toEqual([0, 5]);
    expect(client.rateLimit).toMatchObject({ limit: 60, remaining: 5 });
    expect(canPrefetch(client.rateLimit)).toBe(false);
  });

  it('gives up on a Retry-After too long to wait, saying how long', async () => {
    stub = await stubServer((_q, r) => sendJson(r, 429, {}, { 'Retry-After': '120' }));
    const error = await failure(clientFor(stub.url).listEmails({}));
    expect(error).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 120 });
    expect(stub.requests).toHaveLength(1);
  });

  it('retries GETs on 502/503/504 with backoff, never a PUT', async () => {
    stub = await stubServer((q, r, i) => {
      if (q.method === 'PUT') return sendJson(r, 503, { message: 'down' });
      return i < 2 ? sendJson(r, i === 0 ? 502 : 504, 'gateway') : sendJson(r, 200, EMPTY_PAGE);
    });
    const client = clientFor(stub.url);
    await client.listEmails({});
    expect(stub.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    const error = await failure(client.updateAutomation('a1', { title: 'x' } as never));
    expect(error.kind).toBe('server');
    expect(stub.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('maps 415 and other refusals to bad-request, 500 to server', async () => {
    stub = await stubServer((_q, r, i) => sendJson(r, [415, 400, 500][i] ?? 500, { error: { message: 'nested message', status_code: 400 } }));
    const client = clientFor(stub.url, { maxRetries: 0 });
    expect((await failure(client.updateAutomation('a', { title: 'x' } as never))).kind).toBe('bad-request');
    const plain = await failure(client.updateAutomation('a', { title: 'x' } as never));
    expect(plain.kind).toBe('bad-request');
    expect(plain.message).toContain('nested message');
    expect((await failure(client.listEmails({}))).kind).toBe('server');
  });

  it('re-reads an automation when the update answers 200 with an empty body', async () => {
    const automation = { id: 'a1', title: 'Fresh from GET', payload_format: 'raw' };
    stub = await stubServer((q, r) => (q.method === 'PUT' ? (r.writeHead(200), r.end()) : sendJson(r, 200, { data: [automation] })));
    const updated = await clientFor(stub.url).updateAutomation('a1', { title: 'Fresh from GET' } as never);
    expect(updated).toMatchObject({ id: 'a1', title: 'Fresh from GET', payload_format: 'raw' });
    expect(stub.requests.map((r) => r.method)).toEqual(['PUT', 'GET']);
  });

  it('remembers an optional operation the server lacks, and stops asking', async () => {
    stub = await stubServer((q, r) => {
      if (q.url?.includes('/automations')) return sendJson(r, 404, { message: 'Not Found' });
      if (q.url?.includes('/favorites')) return sendJson(r, 405, { message: 'Method Not Allowed' });
      return sendJson(r, 200, EMPTY_PAGE);
    });
    const client = clientFor(stub.url);
    expect((await failure(client.listAutomations())).kind).toBe('unsupported');
    expect((await failure(client.listAutomations())).kind).toBe('unsupported');
    expect((await failure(client.setFavorite('e1', true))).kind).toBe('unsupported');
    expect(stub.requests.filter((r) => r.url.includes('/automations'))).toHaveLength(1);
    expect(client.isUnsupported('setFavorite')).toBe(true);
  });

  it('tells a missing email from a missing route', async () => {
    stub = await stubServer((_q, r) => sendJson(r, 404, { message: 'No query results for model [App\\Email] e1' }));
    const client = clientFor(stub.url);
    expect((await failure(client.deleteEmail('e1'))).kind).toBe('not-found');
    expect(client.isUnsupported('deleteEmail')).toBe(false);
  });

  it('cancels an older request for the same view when a newer one starts', async () => {
    stub = await stubServer((q, r) => setTimeout(() => sendJson(r, 200, EMPTY_PAGE), q.url?.includes('slow') ? 500 : 10));
    const client = clientFor(stub.url);
    const older = client.listEmails({ search: 'slow' }, { view: 'list' });
    const newer = client.listEmails({ search: 'fast' }, { view: 'list' });
    const olderError = await failure(older);
    expect(olderError.message).toMatch(/cancelled/);
    expect((await newer).meta.total).toBe(0);
  });

  it('unescapes a raw message only where the server is MailCare, which HTML-escapes it (issue 20)', async () => {
    const sent = 'From: A &lt;a@b.test&gt;\r\nSubject: x &amp; y &#039;q&#039;\r\n\r\nbody';
    stub = await stubServer((_q, r) => {
      r.writeHead(200, { 'Content-Type': 'message/rfc2822' });
      r.end(sent);
    });
    // The API document's service sends the message as stored: an email that says &amp; keeps it.
    expect((await clientFor(stub.url).getEmailBody('e1', 'raw')).content).toBe(sent);
    const mailcare = new ServiceClient({ baseUrl: stub.url, teamId: '', token: null, flavor: 'mailcare' }, fast);
    expect((await mailcare.getEmailBody('e1', 'raw')).content).toBe("From: A <a@b.test>\r\nSubject: x & y 'q'\r\n\r\nbody");
  });

  it('never puts the token in an error message', async () => {
    stub = await stubServer((_q, r) => sendJson(r, 401, { message: 'bad token secret-token-xyz' }));
    const error = await failure(clientFor(stub.url).listEmails({}));
    expect(error.message).not.toContain('secret-token-xyz');
  });
});

describe('API client: the reader reads only the head of a long body', () => {
  let stub: StubServer | null = null;
  afterEach(async () => {
    await stub?.close();
    stub = null;
  });
  const clientFor = (url: string) => new ServiceClient({ baseUrl: url, teamId: 't', token: 'token-123' }, fast);

  /** A server that streams `body` in 64 KB steps, waiting on the socket, and counts what it got to write. */
  async function streaming(body: Buffer, headers: Record<string, string>): Promise<{ stub: StubServer; written: () => Promise<number> }> {
    let done: (n: number) => void = () => undefined;
    const finished = new Promise<number>((r) => (done = r));
    const server = await stubServer(async (_q, r) => {
      r.writeHead(200, headers);
      let sent = 0;
      r.on('close', () => done(sent));
      for (let at = 0; at < body.length && !r.destroyed; at += 65_536) {
        const chunk = body.subarray(at, at + 65_536);
        sent += chunk.length;
        if (!r.write(chunk)) await new Promise((go) => (r.once('drain', go), r.once('close', go)));
      }
      r.end();
    });
    return { stub: server, written: () => finished };
  }

  it('stops downloading a 10 MB text body after its clip, and says how long the whole is', async () => {
    const text = Buffer.from(Array.from({ length: 180_000 }, (_, i) => `log line ${i}: ${'x'.repeat(45)}`).join('\n'));
    const server = await streaming(text, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(text.length) });
    stub = server.stub;
    const body = await clientFor(stub.url).readerBody('e1', 'text');
    expect(body.content.startsWith('log line 0: ')).toBe(true);
    expect(body.content.length).toBeLessThanOrEqual(CLIP_CHARS);
    expect(body.total).toBe(text.length);
    // The server stopped early: a few socket buffers' worth, not 10 MB.
    expect(await server.written()).toBeLessThan(4_000_000);
  });

  it('drops a character the head cut in two, and reads whole what declares no length', async () => {
    const euros = Buffer.from(`<p>${'€'.repeat(200_000)}</p>`);
    stub = (await streaming(euros, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(euros.length) })).stub;
    const head = await clientFor(stub.url).readerBody('e1', 'html');
    expect(head.content).not.toContain('\uFFFD');
    expect(head.content.startsWith('<p>€€€')).toBe(true);
    expect(head.total).toBe(euros.length);
    await stub.close();

    // Chunked, no Content-Length: read whole, clipped, the exact length known.
    stub = (await streaming(euros, { 'Content-Type': 'text/html; charset=utf-8' })).stub;
    const client = clientFor(stub.url);
    const whole = await client.readerBody('e1', 'html');
    expect(whole.total).toBe(200_007);
    // The whole body is kept: "Show the whole message" asks nothing more.
    expect((await client.getEmailBody('e1', 'html')).content.length).toBe(200_007);
    expect(stub.requests).toHaveLength(1);
  });
});
