/**
 * The catcher's API for tests and agents, judged by clients nobody here
 * wrote: the `mailpit-api` package's own calls (Mailpit's REST API), the MCP
 * SDK's own client (over streamable HTTP and over stdio), nodemailer sending
 * over real SMTP, and plain fetch for the wait. Against the reference service
 * in process and against `npm run catch` as a user starts it.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MailpitClient } from 'mailpit-api';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { startCatch, type RunningCatch } from '../support/catch-command.ts';

const run = promisify(execFile);
const TOKEN = 'catcher-test-token-0123456789';

interface Catcher {
  api: string;
  smtpPort: number;
  token: string;
  team: string;
}

const senders = new Map<number, ReturnType<typeof nodemailer.createTransport>>();
/** A pooled SMTP client per port, as a test suite's app would hold one; closed before its catcher stops. */
function sender(port: number) {
  const known = senders.get(port);
  if (known) return known;
  const made = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: 4, auth: { user: 'app', pass: 'anything' } });
  senders.set(port, made);
  return made;
}
function closeSender(port: number) {
  senders.get(port)?.close();
  senders.delete(port);
}

const signUp = (to: string, code: string, extra: Record<string, unknown> = {}) => ({
  from: '"My App" <no-reply@myapp.test>',
  to,
  subject: 'Confirm your email',
  text: `Welcome!\n\nYour verification code is ${code}.\n\nOr confirm here: https://myapp.test/confirm?token=${code}abc\n`,
  html: `<p>Welcome!</p><p>Your verification code is <b>${code}</b>.</p><p><a href="https://myapp.test/confirm?token=${code}abc">Confirm your email</a></p>`,
  ...extra,
});

const authed = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

/** The suite every catcher must pass, however it was started. */
function catcherSuite(name: string, start: () => Promise<Catcher>, stop: () => Promise<void>) {
  describe(name, () => {
    let c: Catcher;
    let mailpit: MailpitClient;
    beforeAll(async () => {
      c = await start();
      mailpit = new MailpitClient(c.api, { auth: { username: 'any-user', password: c.token } });
    }, 60_000);
    afterAll(async () => {
      closeSender(c.smtpPort);
      await stop();
    });

    it("passes mailpit-api's own calls unchanged", async () => {
      await mailpit.deleteMessages();
      const mail = sender(c.smtpPort);
      await mail.sendMail(signUp('ada@myapp.test', '739204', { cc: 'team@myapp.test', bcc: 'audit@myapp.test' }));
      await mail.sendMail({ from: 'billing@myapp.test', to: 'bob@myapp.test', subject: 'Invoice 42', text: 'Your invoice is attached.', attachments: [{ filename: 'invoice.txt', content: 'total 42' }] });

      const info = await mailpit.getInfo();
      expect(info.Messages).toBe(2);
      expect(info.Unread).toBe(2);

      // One message to To + Cc + Bcc is one message, as Mailpit lists it.
      const list = await mailpit.listMessages();
      expect(list.total).toBe(2);
      expect(list.messages.map((m) => m.Subject)).toEqual(['Invoice 42', 'Confirm your email']);
      const signup = list.messages[1]!;
      expect(signup.To).toEqual([{ Name: '', Address: 'ada@myapp.test' }]);
      expect(signup.Cc).toEqual([{ Name: '', Address: 'team@myapp.test' }]);
      expect(signup.Bcc).toEqual([{ Name: '', Address: 'audit@myapp.test' }]);
      expect(signup.From).toEqual({ Name: 'My App', Address: 'no-reply@myapp.test' });
      expect(signup.Snippet).toContain('Your verification code is 739204');

      const found = await mailpit.searchMessages({ query: 'to:ada@myapp.test subject:confirm' });
      expect(found.messages_count).toBe(1);
      // Bcc recipients find it too.
      expect((await mailpit.searchMessages({ query: 'to:audit@myapp.test' })).messages_count).toBe(1);
      expect((await mailpit.searchMessages({ query: 'is:unread -subject:invoice' })).messages.map((m) => m.Subject)).toEqual(['Confirm your email']);
      expect((await mailpit.searchMessages({ query: '"verification code"' })).messages_count).toBe(1);

      const latest = await mailpit.getMessageSummary('latest');
      expect(latest.Subject).toBe('Invoice 42');
      expect(latest.Attachments).toHaveLength(1);
      const part = await mailpit.getMessageAttachment(latest.ID, latest.Attachments[0]!.PartID);
      expect(await part.text()).toBe('total 42');

      const summary = (await mailpit.getMessageSummary(signup.ID)) as Awaited<ReturnType<MailpitClient['getMessageSummary']>> & { Code: { value: string; label: string } | null; Link: { url: string } | null };
      expect(summary.Code).toEqual({ value: '739204', label: 'verification code', in: 'body' });
      expect(summary.Link?.url).toBe('https://myapp.test/confirm?token=739204abc');
      expect(summary.HTML).toContain('<b>739204</b>');

      const source = await mailpit.getMessageSource(signup.ID);
      expect(source).toMatch(/^[\s\S]*Subject: Confirm your email\r\n/);
      expect(source).not.toContain('audit@myapp.test'); // Bcc is the envelope's, never the header's
      const headers = await mailpit.getMessageHeaders(signup.ID);
      expect(headers.Subject).toEqual(['Confirm your email']);
      expect(Object.keys(headers)).toEqual([...Object.keys(headers)].sort((a, b) => a.localeCompare(b)));

      // getMessageSummary read both; set them unread again, then one read by ID.
      await mailpit.setReadStatus({ Read: false });
      expect((await mailpit.getInfo()).Unread).toBe(2);
      await mailpit.setReadStatus({ IDs: [signup.ID], Read: true });
      expect((await mailpit.searchMessages({ query: 'is:read' })).messages.map((m) => m.ID)).toEqual([signup.ID]);
      await mailpit.setReadStatus({ Search: 'subject:invoice', Read: true });
      expect((await mailpit.getInfo()).Unread).toBe(0);

      await mailpit.deleteMessagesBySearch({ query: 'from:billing@myapp.test' });
      expect((await mailpit.listMessages()).messages.map((m) => m.Subject)).toEqual(['Confirm your email']);
      await mailpit.deleteMessages({ IDs: [signup.ID] });
      expect((await mailpit.listMessages()).total).toBe(0);

      // waitForMessage polls search: it finds mail sent while it waits.
      const waiting = mailpit.waitForMessage({ query: 'to:late@myapp.test' }, { timeout: 10_000, interval: 100 });
      await mail.sendMail(signUp('late@myapp.test', '551208'));
      expect(((await waiting) as typeof summary).Code?.value).toBe('551208');
      await mailpit.deleteMessages();
      expect((await mailpit.getInfo()).Messages).toBe(0);
    });

    it("takes mail through mailpit-api's sendMessage as Mailpit does, says what is wrong with a send, and answers Mailpit's probes", async () => {
      await mailpit.deleteMessages();
      const { ID } = await mailpit.sendMessage({
        From: { Email: 'app@myapp.test', Name: 'My App' },
        To: [{ Email: 'sam@myapp.test', Name: 'Sam Lee' }],
        Cc: [{ Email: 'team@myapp.test' }],
        Bcc: ['audit@myapp.test'],
        ReplyTo: [{ Email: 'help@myapp.test' }],
        Subject: 'Your login code',
        Text: 'Your login code is 482913.',
        HTML: '<p>Your login code is <b>482913</b>.</p>',
        Headers: { 'X-Campaign': 'signup' },
        Tags: ['signup', 'e2e'],
        Attachments: [{ Filename: 'terms.txt', Content: Buffer.from('the terms, in full').toString('base64') }],
      });
      const sent = (await mailpit.getMessageSummary(ID)) as Awaited<ReturnType<MailpitClient['getMessageSummary']>> & { Code: { value: string } | null };
      expect(sent.Subject).toBe('Your login code');
      expect(sent.From).toEqual({ Name: 'My App', Address: 'app@myapp.test' });
      expect(sent.To).toEqual([{ Name: 'Sam Lee', Address: 'sam@myapp.test' }]);
      expect(sent.Cc).toEqual([{ Name: '', Address: 'team@myapp.test' }]);
      expect(sent.Bcc).toEqual([{ Name: '', Address: 'audit@myapp.test' }]);
      expect(sent.ReplyTo).toEqual([{ Name: '', Address: 'help@myapp.test' }]);
      expect(sent.Text.trim()).toBe('Your login code is 482913.');
      expect(sent.HTML).toContain('<b>482913</b>');
      expect(sent.Code?.value).toBe('482913');
      expect(sent.Attachments.map((a) => a.FileName)).toEqual(['terms.txt']);
      expect(await (await mailpit.getMessageAttachment(ID, sent.Attachments[0]!.PartID)).text()).toBe('the terms, in full');
      const headers = await mailpit.getMessageHeaders(ID);
      expect(headers['X-Campaign']).toEqual(['signup']);
      expect(headers['X-Tags']).toEqual(['signup, e2e']);
      expect(await mailpit.getMessageSource(ID)).not.toContain('audit@myapp.test');
      // One message, found by each of its recipients.
      for (const to of ['sam@myapp.test', 'team@myapp.test', 'audit@myapp.test']) expect((await mailpit.searchMessages({ query: `to:${to}` })).messages.map((m) => m.ID), to).toEqual([ID]);

      const send = async (body: unknown) => {
        const response = await fetch(`${c.api}/api/v1/send`, { method: 'POST', headers: { ...authed(c.token).headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as { Error?: string } };
      };
      const ok = { From: { Email: 'app@myapp.test' }, To: [{ Email: 'sam@myapp.test' }], Subject: 'Hello' };
      expect(await send({ ...ok, Subject: '' })).toEqual({ status: 400, body: { Error: 'error building message: subject not set' } });
      expect(await send({ ...ok, From: {} })).toEqual({ status: 400, body: { Error: 'error building message: from not set' } });
      expect(await send({ ...ok, To: [] })).toEqual({ status: 400, body: { Error: 'error building message: no recipients (to, cc, bcc) set' } });
      expect(await send({ ...ok, To: [{ Email: 'not an address' }] })).toEqual({ status: 400, body: { Error: 'invalid To address: not an address' } });
      expect(await send({ ...ok, Headers: { Subject: 'Sneaky' } })).toEqual({ status: 400, body: { Error: 'cannot overwrite header: "Subject"' } });
      expect((await send({ ...ok, Attachments: [{ Filename: 'a.bin', Content: 'not base64!' }] })).body.Error).toMatch(/^error decoding base64 attachment "a\.bin"/);
      expect((await mailpit.listMessages()).total).toBe(1);
      // Without the token, nothing is taken.
      expect((await fetch(`${c.api}/api/v1/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ok) })).status).toBe(401);

      // No spamd given: Mailpit's sa-check is off, and says how to turn it on.
      const saCheck = await fetch(`${c.api}/api/v1/message/${ID}/sa-check`, authed(c.token));
      expect([saCheck.status, await saCheck.text()]).toEqual([404, 'SpamAssassin checks are off: give the catcher a spamd (npm run catch -- --spamd host:port; in the app, Settings → spamd)']);
      expect((await mailpit.getConfiguration()).SpamAssassin).toBe(false);

      // Mailpit's health probes, asked as a CI service's health check asks them: no token.
      for (const probe of ['/livez', '/readyz']) expect((await fetch(`${c.api}${probe}`)).status, probe).toBe(200);
      await mailpit.deleteMessages();
    });

    it("keeps Mailpit's tags through mailpit-api's calls: from X-Tags, set, searched, renamed, deleted, gone with their message", async () => {
      await mailpit.deleteMessages();
      const mail = sender(c.smtpPort);
      await mail.sendMail({ ...signUp('tag-a@myapp.test', '100200'), headers: { 'X-Tags': 'signup, Run #7, SIGNUP' } });
      await mail.sendMail(signUp('tag-b@myapp.test', '300400', { cc: 'tag-c@myapp.test' }));
      const [b, a] = (await mailpit.listMessages()).messages;
      // Cleaned as Mailpit cleans them ('#' is no tag character), one of each whatever the case, sorted.
      expect(a!.Tags).toEqual(['Run 7', 'signup']);
      expect(b!.Tags).toEqual([]);
      await mailpit.setTags({ IDs: [b!.ID], Tags: ['Signup', 'second', 'second'] });
      // A name in use keeps its spelling; the message to To and Cc is tagged once.
      expect((await mailpit.getMessageSummary(b!.ID)).Tags).toEqual(['second', 'signup']);
      expect(await mailpit.getTags()).toEqual(['Run 7', 'second', 'signup']);
      expect((await mailpit.getInfo()).Tags).toEqual({ 'Run 7': 1, second: 1, signup: 2 });
      expect((await mailpit.listMessages()).tags).toEqual(['Run 7', 'second', 'signup']);
      expect((await mailpit.searchMessages({ query: 'tag:SIGNUP' })).messages.map((m) => m.ID)).toEqual([b!.ID, a!.ID]);
      expect((await mailpit.searchMessages({ query: 'tag:"run 7"' })).messages.map((m) => m.ID)).toEqual([a!.ID]);
      expect((await mailpit.searchMessages({ query: 'tag:sign' })).messages_count).toBe(0);
      expect((await mailpit.searchMessages({ query: '-tag:second is:tagged' })).messages.map((m) => m.ID)).toEqual([a!.ID]);

      await mailpit.renameTag('second', 'Second run');
      await mailpit.deleteTag('signup');
      expect(await mailpit.getTags()).toEqual(['Run 7', 'Second run']);
      const change = (method: string, tag: string, body?: unknown) =>
        fetch(`${c.api}/api/v1/tags/${encodeURIComponent(tag)}`, { method, ...(body ? { headers: { ...authed(c.token).headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : authed(c.token)) }).then(async (r) => [r.status, await r.text()]);
      expect(await change('PUT', 'Run 7', { Name: 'Second run' })).toEqual([400, 'tag already exists: Second run']);
      expect(await change('PUT', 'nothing', { Name: 'else' })).toEqual([400, 'tag not found: nothing']);
      expect(await change('DELETE', 'nothing')).toEqual([400, 'tag not found: nothing']);
      // Tags set to none, and a message's tags go with it.
      await mailpit.setTags({ IDs: [b!.ID] });
      expect(await mailpit.getTags()).toEqual(['Run 7']);
      await mailpit.deleteMessages({ IDs: [a!.ID] });
      expect(await mailpit.getTags()).toEqual([]);

      // A send's Tags are its X-Tags.
      const { ID } = await mailpit.sendMessage({ From: { Email: 'app@myapp.test' }, To: [{ Email: 'tag-d@myapp.test' }], Subject: 'Tagged', Tags: ['from-send'] });
      expect((await mailpit.getMessageSummary(ID)).Tags).toEqual(['from-send']);
      await mailpit.deleteMessages();
      expect(await mailpit.getTags()).toEqual([]);
    });

    it("answers mailpit-api's linkCheck, and asks nothing of this machine unless allowed (Mailpit's 451)", async () => {
      const hits: string[] = [];
      const site = createServer((request, response) => {
        hits.push(request.url ?? '');
        response.end();
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const local = `http://127.0.0.1:${(site.address() as AddressInfo).port}/confirm`;
      try {
        await sender(c.smtpPort).sendMail({ from: 'app@myapp.test', to: 'links@myapp.test', subject: 'Local link', html: `<p><a href="${local}">Confirm</a></p>` });
        const report = await mailpit.linkCheck('latest');
        expect(report).toEqual({ Errors: 1, Links: [{ URL: local, StatusCode: 451, Status: 'Blocked private/reserved address' }] });
        expect(hits).toEqual([]);
      } finally {
        site.close();
      }
    });

    it('lists parts shown within the body as Inline, apart from the attachments, as Mailpit sorts them', async () => {
      await mailpit.deleteMessages();
      const mail = sender(c.smtpPort);
      const logo = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      // nodemailer: the logo inline by its Content-Disposition, beside a file attached.
      await mail.sendMail({
        from: 'app@myapp.test',
        to: 'parts@myapp.test',
        subject: 'Logo and invoice',
        html: '<p><img src="cid:logo@myapp" alt="MyApp"></p>',
        attachments: [
          { filename: 'logo.png', content: logo, cid: 'logo@myapp' },
          { filename: 'invoice.txt', content: 'total 42' },
        ],
      });
      const both = await mailpit.getMessageSummary('latest');
      expect(both.Inline.map((p) => [p.FileName, p.ContentID])).toEqual([['logo.png', 'logo@myapp']]);
      expect(both.Attachments.map((p) => [p.FileName, p.ContentID])).toEqual([['invoice.txt', '']]);
      expect(Buffer.from(await (await mailpit.getMessageAttachment(both.ID, both.Inline[0]!.PartID)).arrayBuffer())).toEqual(logo);
      expect((await mailpit.listMessages()).messages[0]!.Attachments).toBe(1);
      // Hand-written: an image of multipart/related with a Content-ID and no Content-Disposition is inline too.
      const boundary = 'rel-1';
      await mail.sendMail({
        envelope: { from: 'app@myapp.test', to: ['parts@myapp.test'] },
        raw: [
          'From: app@myapp.test',
          'To: parts@myapp.test',
          'Subject: Logo only',
          'MIME-Version: 1.0',
          `Content-Type: multipart/related; boundary="${boundary}"`,
          '',
          `--${boundary}`,
          'Content-Type: text/html; charset=utf-8',
          '',
          '<p><img src="cid:mark@myapp"></p>',
          `--${boundary}`,
          'Content-Type: image/png; name="mark.png"',
          'Content-ID: <mark@myapp>',
          'Content-Transfer-Encoding: base64',
          '',
          logo.toString('base64'),
          `--${boundary}--`,
          '',
        ].join('\r\n'),
      });
      const only = await mailpit.getMessageSummary('latest');
      expect(only.Inline.map((p) => p.ContentID)).toEqual(['mark@myapp']);
      expect(only.Attachments).toEqual([]);
      expect((await mailpit.listMessages()).messages[0]!.Attachments).toBe(0);
      expect((await mailpit.searchMessages({ query: 'has:attachment' })).messages.map((m) => m.Subject)).toEqual(['Logo and invoice']);
      await mailpit.deleteMessages();
    });

    it('views the bodies sandboxed, and reads nothing without the token', async () => {
      await sender(c.smtpPort).sendMail(signUp('view@myapp.test', '480213'));
      const view = await fetch(`${c.api}/view/latest.html`, authed(c.token));
      expect(view.headers.get('content-security-policy')).toMatch(/^sandbox;/);
      expect(await view.text()).toContain('<b>480213</b>');
      expect(await (await fetch(`${c.api}/view/latest.txt`, authed(c.token))).text()).toContain('code is 480213');
      for (const path of ['/api/v1/messages', '/api/v1/message/latest', '/view/latest.html', `/api/teams/${c.team}/emails`, `/api/teams/${c.team}/emails/wait?timeout=0`]) {
        const none = await fetch(`${c.api}${path}`);
        expect(none.status, path).toBe(401);
        expect(await none.text()).not.toContain('480213');
        expect((await fetch(`${c.api}${path}`, { headers: { Authorization: 'Bearer wrong' } })).status, path).toBe(401);
      }
      const basicWrong = await fetch(`${c.api}/api/v1/messages`, { headers: { Authorization: `Basic ${Buffer.from('user:wrong').toString('base64')}` } });
      expect(basicWrong.status).toBe(401);
      expect(basicWrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    });

    it('holds a wait until the email arrives, with its code and link, and never races', async () => {
      const wait = (query: string) => fetch(`${c.api}/api/teams/${c.team}/emails/wait?${query}`, authed(c.token));
      const pending = wait('inbox=wait-1@myapp.test&timeout=20');
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sender(c.smtpPort).sendMail(signUp('other@myapp.test', '111111'));
      await sender(c.smtpPort).sendMail(signUp('wait-1@myapp.test', '902341'));
      const answer = await pending;
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { data: { inbox: { email: string } }; code: { value: string; label: string }; link: { url: string }; cursor: string };
      expect(body.data.inbox.email).toBe('wait-1@myapp.test');
      expect(body.code).toEqual({ value: '902341', label: 'verification code', in: 'body' });
      expect(body.link.url).toBe('https://myapp.test/confirm?token=902341abc');

      // A cursor taken before the mail was sent gets it even when it arrived before the wait was asked.
      const list = await fetch(`${c.api}/api/teams/${c.team}/emails?limit=1`, authed(c.token));
      const cursor = list.headers.get('x-inbox-desk-cursor')!;
      expect(cursor).toMatch(/^\d+$/);
      await sender(c.smtpPort).sendMail(signUp('wait-2@myapp.test', '300400'));
      const late = await wait(`inbox=wait-2@myapp.test&after=${cursor}&timeout=5`);
      expect(((await late.json()) as { code: { value: string } }).code.value).toBe('300400');
      // Without a cursor, only mail after the request: the one already here is not an answer.
      const none = await wait('inbox=wait-2@myapp.test&timeout=0.3');
      expect(none.status).toBe(504);
      expect(((await none.json()) as { message: string }).message).toMatch(/within 0.3 s/);
    });

    it('answers 100 waits held at once, each with its own email', async () => {
      const cursor = (await fetch(`${c.api}/api/teams/${c.team}/emails?limit=1`, authed(c.token))).headers.get('x-inbox-desk-cursor')!;
      const waits = Array.from({ length: 100 }, (_, i) => fetch(`${c.api}/api/teams/${c.team}/emails/wait?inbox=many-${i}@myapp.test&after=${cursor}&timeout=30`, authed(c.token)).then((r) => r.json() as Promise<{ code: { value: string } }>));
      const mail = sender(c.smtpPort);
      for (let i = 99; i >= 0; i--) await mail.sendMail(signUp(`many-${i}@myapp.test`, String(100000 + i)));
      const answers = await Promise.all(waits);
      expect(answers.map((a) => a.code.value)).toEqual(Array.from({ length: 100 }, (_, i) => String(100000 + i)));
    }, 60_000);

    it('says which part of a wait is wrong', async () => {
      const cursor = Number((await fetch(`${c.api}/api/teams/${c.team}/emails?limit=1`, authed(c.token))).headers.get('x-inbox-desk-cursor'));
      for (const [query, words] of [
        ['after=yesterday', /after=yesterday is not a cursor/],
        [`after=${cursor + 1000}`, /ahead of this catcher/],
        ['timeout=301', /at most 300 s/],
        ['timeout=soon', /not a number of seconds/],
      ] as const) {
        const answer = await fetch(`${c.api}/api/teams/${c.team}/emails/wait?${query}`, authed(c.token));
        expect(answer.status, query).toBe(400);
        expect(((await answer.json()) as { message: string }).message).toMatch(words);
      }
      const mailpitWait = await fetch(`${c.api}/api/v1/wait?query=to:x@y.test&timeout=0`, authed(c.token));
      expect(mailpitWait.status).toBe(504);
    });

    it("gives a coding agent the code through the MCP SDK's own client", async () => {
      const client = new Client({ name: 'agent-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${c.api}/mcp`), { requestInit: authed(c.token) }));
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['delete_emails', 'get_code', 'get_email', 'get_link', 'list_emails', 'wait_for_email']);
      // The agent signs up (the app sends), then waits, then reads the code.
      const waiting = client.callTool({ name: 'wait_for_email', arguments: { to: 'agent@myapp.test', timeout_seconds: 20 } });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sender(c.smtpPort).sendMail(signUp('agent@myapp.test', '624091'));
      const waited = (await waiting) as unknown as { structuredContent: { id: string; code: string; link: string }; isError?: boolean };
      expect(waited.isError).toBeFalsy();
      expect(waited.structuredContent.code).toBe('624091');
      const code = (await client.callTool({ name: 'get_code', arguments: { to: 'agent@myapp.test' } })) as { content: { text: string }[] };
      expect(code.content[0]!.text).toBe('624091');
      const link = (await client.callTool({ name: 'get_link', arguments: { id: waited.structuredContent.id } })) as { content: { text: string }[] };
      expect(link.content[0]!.text).toBe('https://myapp.test/confirm?token=624091abc');
      const read = (await client.callTool({ name: 'get_email', arguments: { id: waited.structuredContent.id } })) as { content: { text: string }[] };
      expect(read.content[0]!.text).toContain('Subject: Confirm your email');
      expect(read.content[0]!.text).not.toContain('<b>');
      const missing = (await client.callTool({ name: 'get_code', arguments: { id: 'no-such-email' } })) as { isError: boolean; content: { text: string }[] };
      expect(missing.isError).toBe(true);
      expect(missing.content[0]!.text).toMatch(/No email no-such-email/);
      await client.close();
      const refused = new Client({ name: 'no-token', version: '1.0.0' });
      await expect(refused.connect(new StreamableHTTPClientTransport(new URL(`${c.api}/mcp`)))).rejects.toThrow();
    });
  });
}

let service: RunningService;
catcherSuite(
  'the catcher in process (the engine This computer runs)',
  async () => {
    service = await startReferenceService({ teams: [{ id: 'this-computer', token: TOKEN }], catcher: true, rateLimit: 0, smtpPort: 0, smtp: { host: '127.0.0.1', auth: 'any' }, publicApi: { host: '127.0.0.1', port: 0 } });
    const publicApi = service.publicApi as { url: string };
    return { api: publicApi.url, smtpPort: service.smtpPort!, token: TOKEN, team: 'this-computer' };
  },
  () => service.close(),
);

let running: RunningCatch;
catcherSuite(
  'npm run catch',
  async () => {
    running = await startCatch();
    // The token is kept beside the mail, and the folder is said.
    expect((await readFile(join(running.dataDir, 'api-token'), 'utf8')).trim()).toBe(running.token);
    expect(running.output).toContain(`Mail:     ${running.dataDir} (the newest 500 kept)`);
    return { api: running.api, smtpPort: running.smtpPort, token: running.token, team: 'this-computer' };
  },
  () => running.stop(),
);

describe("Mailpit's link check on a catcher allowed to reach this machine", () => {
  it('asks each link and image once, in Mailpit\'s order (links, then images), following redirects only when asked', async () => {
    const hits: string[] = [];
    const site = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      if (request.url === '/moved') response.writeHead(301, { Location: '/welcome' });
      else if (request.url === '/gone') response.writeHead(404);
      response.end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const local = await startReferenceService({ teams: [{ id: 'this-computer', token: TOKEN }], catcher: true, rateLimit: 0, allowPrivateWebhooks: true, publicApi: { host: '127.0.0.1', port: 0 } });
    try {
      const mailpit = new MailpitClient((local.publicApi as { url: string }).url, { auth: { username: 'any', password: TOKEN } });
      const html = `<p><a href="${at}/moved">Start</a> <a href="${at}/gone">Old page</a> <img src="${at}/logo.png" alt=""> <a href="${at}/gone">Again</a> <a href="http://nowhere.invalid/">Nowhere</a></p>`;
      await local.inject(`From: app@myapp.test\r\nTo: links@myapp.test\r\nSubject: Links\r\nContent-Type: text/html\r\n\r\n${html}`);
      const asIs = await mailpit.linkCheck('latest');
      expect(asIs.Links.map((l) => [l.URL, l.StatusCode, l.Status])).toEqual([
        [`${at}/moved`, 301, 'Moved Permanently'],
        [`${at}/gone`, 404, 'Not Found'],
        ['http://nowhere.invalid/', 0, 'Cannot find nowhere.invalid.'],
        [`${at}/logo.png`, 200, 'OK'],
      ]);
      expect(asIs.Errors).toBe(2);
      expect(hits.sort()).toEqual(['HEAD /gone', 'HEAD /logo.png', 'HEAD /moved']);
      const followed = await mailpit.linkCheck('latest', true);
      expect(followed.Links[0]).toEqual({ URL: `${at}/moved`, StatusCode: 200, Status: 'OK' });
      expect(hits).toContain('HEAD /welcome');
    } finally {
      await local.close();
      site.close();
    }
  });
});

describe('npm run mcp (stdio)', () => {
  it("lists the tools to the SDK's stdio client and waits for mail sent over SMTP", async () => {
    const service = await startReferenceService({ teams: [{ id: 'this-computer', token: TOKEN }], catcher: true, rateLimit: 0, smtpPort: 0, smtp: { host: '127.0.0.1', auth: 'any' } });
    try {
      await run('npm', ['run', 'build:server', '--silent']);
      const script = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.mcp!;
      const entry = script.slice(script.lastIndexOf('node ') + 5).trim();
      const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, '--url', service.baseUrl], env: { ...process.env, INBOX_DESK_TOKEN: TOKEN } as Record<string, string> }));
      expect((await client.listTools()).tools).toHaveLength(6);
      const waiting = client.callTool({ name: 'wait_for_email', arguments: { to: 'stdio@myapp.test', timeout_seconds: 20 } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sender(service.smtpPort!).sendMail(signUp('stdio@myapp.test', '775310'));
      expect(((await waiting) as unknown as { structuredContent: { code: string } }).structuredContent.code).toBe('775310');
      await client.close();
    } finally {
      closeSender(service.smtpPort!);
      await service.close();
    }
  }, 60_000);
});
