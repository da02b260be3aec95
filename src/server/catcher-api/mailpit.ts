/**
 * Mailpit's REST API (/api/v1, its swagger's shapes), so a suite written for
 * Mailpit, or a client such as `mailpit-api`, moves over unchanged: info,
 * messages (list, read status, delete), search (list, delete), one message by
 * ID or `latest` with its raw source, headers, parts and views (send, tags
 * and the checks: mailpit-tools.ts). Extra fields a Mailpit client ignores:
 * each message's Code and Link (the finder's), the Cursor of the store, and
 * GET /api/v1/wait, which Mailpit has not.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromMailpit, toMailpit } from '../../shared/domain/chaos.ts';
import { relayTarget } from '../../shared/domain/relay.ts';
import { parseMessage } from '../ingest.ts';
import { releaseStored } from '../relay.ts';
import type { ReferenceService } from '../service.ts';
import type { StoredEmail, TeamStore } from '../team-store.ts';
import { insightsFor } from './insights.ts';
import { badRequest, emailById, idsOf, messageById, messagesOf, notFound, ok, whole, type Ids, type Message } from './mailpit-lookup.ts';
import { mailpitToolRoutes } from './mailpit-tools.ts';
import { matches, parseSearch, type SearchTerm } from './mailpit-search.ts';
import { factsOf, headerBlock } from './message-facts.ts';
import { readWaitQuery } from './wait-query.ts';
import { TooManyWaits, type WaitRoom } from './waits.ts';

const started = Date.now();
const address = (name: string, email: string) => ({ Name: name, Address: email });

function summary(team: TeamStore, message: Message, tags: string[]) {
  const { email } = message;
  const facts = factsOf(team, email);
  // Whom the envelope reached that the headers never named: the Bcc.
  const named = new Set([...facts.to, ...facts.cc, ...facts.bcc].map((a) => a.address));
  const bcc = [...facts.bcc, ...message.rows.filter((row) => !named.has(row.inbox.email)).map((row) => ({ name: row.inbox.display_name, address: row.inbox.email }))];
  return {
    ID: email.id,
    MessageID: facts.messageId,
    Read: email.read !== null,
    From: address(email.sender.display_name, email.sender.email),
    To: facts.to.map((a) => address(a.name, a.address)),
    Cc: facts.cc.map((a) => address(a.name, a.address)),
    Bcc: bcc.map((a) => address(a.name, a.address)),
    ReplyTo: facts.replyTo.map((a) => address(a.name, a.address)),
    Subject: email.subject,
    Created: email.createdAt.toISOString(),
    Username: '',
    Tags: tags,
    Size: email.size,
    // Mailpit counts the parts attached, not those shown within the body.
    Attachments: email.attachments.filter((attachment) => !attachment.inline).length,
    Snippet: facts.body.replace(/\s+/g, ' ').trim().slice(0, 250),
  };
}

/** One message as GET /api/v1/message/{ID} answers it, with the finder's Code and Link. */
async function detail(team: TeamStore, message: Message) {
  const { email } = message;
  const content = team.content(email.id);
  const facts = factsOf(team, email);
  const found = insightsFor(team, email);
  const parts = content ? (await parseMessage(content.raw)).attachments : [];
  // Every part keeps its PartID (its place among them all); Mailpit lists those within the body apart.
  const described = email.attachments.map((attachment, index) => {
    const bytes = parts[index]?.content ?? Buffer.alloc(0);
    const digest = (algorithm: string) => createHash(algorithm).update(bytes).digest('hex');
    return {
      inline: parts[index]?.inline ?? attachment.inline === true,
      part: {
        PartID: String(index + 1),
        FileName: attachment.fileName,
        ContentType: attachment.contentType,
        ContentID: parts[index]?.contentId ?? '',
        Size: attachment.size,
        Checksums: { MD5: digest('md5'), SHA1: digest('sha1'), SHA256: digest('sha256') },
      },
    };
  });
  const base = summary(team, message, team.tagsOf([email.delivery]).get(email.delivery) ?? []);
  return {
    ID: base.ID,
    MessageID: base.MessageID,
    From: base.From,
    To: base.To,
    Cc: base.Cc,
    Bcc: base.Bcc,
    ReplyTo: base.ReplyTo,
    ReturnPath: facts.returnPath,
    Subject: email.subject,
    ListUnsubscribe: {
      Header: facts.listUnsubscribe,
      Links: [...facts.listUnsubscribe.matchAll(/<([^>]+)>/g)].map((m) => m[1]!),
      Errors: '',
      HeaderPost: facts.listUnsubscribePost,
    },
    Date: (facts.date ?? email.createdAt).toISOString(),
    Tags: base.Tags,
    Username: '',
    Text: content?.text ?? '',
    HTML: content?.html ?? '',
    Size: email.size,
    Inline: described.filter((d) => d.inline).map((d) => d.part),
    Attachments: described.filter((d) => !d.inline).map((d) => d.part),
    Code: found.code,
    Link: found.link,
    Cursor: String(team.cursorOf(email.id) ?? 0),
  };
}

interface Found {
  messages: Message[];
  total: number;
}

/**
 * The longest positive term the store's own index can narrow by (an address or a subject; it
 * holds the inboxes, senders and subjects), so a search among 100,000 reads a few rows, not all.
 */
function narrowing(terms: SearchTerm[]): string | undefined {
  const usable = terms.filter((t) => !t.negated && t.value.length >= 3 && (t.field === 'subject' || (['to', 'cc', 'bcc', 'from'].includes(t.field) && t.value.includes('@'))));
  return usable.sort((a, b) => b.value.length - a.value.length)[0]?.value;
}

/** Every row a query matches, newest first (all of them when the query is empty). */
function search(team: TeamStore, terms: SearchTerm[], after?: number): StoredEmail[] {
  const search = narrowing(terms);
  const emails = team.query({ ...(after === undefined ? {} : { after }), ...(search ? { search } : {}) });
  if (terms.length === 0) return emails;
  // Every row's tags in one read, the first time a term asks for them (not a read per row).
  let tagsByDelivery: Map<number, string[]> | undefined;
  const tagsOf = (delivery: number) => (tagsByDelivery ??= team.tagsOf([...new Set(emails.map((e) => e.delivery))])).get(delivery) ?? [];
  return emails.filter((email) => {
    const facts = () => factsOf(team, email);
    return matches(terms, {
      email,
      tags: () => tagsOf(email.delivery),
      to: () => facts().to.map((a) => a.address),
      cc: () => facts().cc.map((a) => a.address),
      bcc: () => facts().bcc.map((a) => a.address),
      messageId: () => facts().messageId,
      body: () => facts().body,
    });
  });
}

function listBody(team: TeamStore, found: Found, start: number, all: { total: number; unread: number }, unreadFound: number) {
  const tags = team.tagsOf(found.messages.map((m) => m.email.delivery));
  return {
    total: all.total,
    unread: all.unread,
    count: found.messages.length,
    messages_count: found.total,
    messages_unread: unreadFound,
    start,
    tags: [...team.tagCounts().keys()],
    messages: found.messages.map((message) => summary(team, message, tags.get(message.email.delivery) ?? [])),
    Cursor: String(team.cursor()),
  };
}

const count = (value: unknown, fallback: number) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback);
export async function mailpitRoutes(app: FastifyInstance, options: { waits: WaitRoom; service: ReferenceService }): Promise<void> {
  const { chaos } = options.service;
  // Chaos, in Mailpit's shape: its three stages; ours (connect, the end of DATA, a delay, a drop) in Settings.
  app.get('/api/v1/chaos', async () => toMailpit(chaos.settings));
  app.put('/api/v1/chaos', async (request, reply) => {
    const next = fromMailpit(request.body ?? {}, chaos.settings);
    if (typeof next === 'string') return badRequest(reply, next);
    chaos.set(next);
    return toMailpit(next);
  });
  app.get('/api/v1/webui', async () => {
    const relay = options.service.relay.config;
    return {
      Label: 'Inbox Desk',
      ChaosEnabled: true,
      DuplicatesIgnored: false,
      HideDeleteAllButton: false,
      SpamAssassin: options.service.spamd !== undefined,
      MessageRelay: {
        Enabled: relay !== null,
        SMTPServer: relay ? relayTarget(relay) : '',
        ReturnPath: relay?.envelopeFrom ?? '',
        AllowedRecipients: relay?.allowlist.join(',') ?? '',
        BlockedRecipients: '',
        OverrideFrom: '',
        PreserveMessageIDs: true,
        RecipientAllowlist: '',
      },
    };
  });

  // Release (Mailpit's shape): the caught bytes sent on through the user's relay, to allowlisted recipients only.
  app.post<{ Params: { id: string } }>('/api/v1/message/:id/release', async (request, reply) => {
    const to = (request.body as { To?: unknown } | null)?.To;
    if (!Array.isArray(to) || to.length === 0 || !to.every((t) => typeof t === 'string')) return badRequest(reply, 'To is required: a list of addresses, such as {"To": ["you@example.test"]}');
    const email = emailById(request.team, request.params.id);
    const answer = email ? await releaseStored(request.team, email, to as string[], options.service.relay.config) : null;
    if (!answer) return notFound(reply);
    // Mailpit's "ok" for its clients; the relay's own answer beside it, for the app to show.
    return reply
      .code(answer.status)
      .header('X-Relay-Answer', answer.message.replace(/[^\x20-\x7e]/g, '?'))
      .type('text/plain; charset=utf-8')
      .send(answer.ok ? 'ok' : answer.message);
  });

  await app.register(mailpitToolRoutes, { service: options.service });

  const counts = (team: TeamStore) => ({ total: team.deliveryPage(0, 0).total, unread: team.deliveryPage(0, 0, { unread: true }).total });
  const unreadOf = (messages: Message[]) => messages.filter((m) => m.email.read === null).length;

  app.get('/api/v1/info', async (request) => {
    const team = request.team;
    const { total, unread } = counts(team);
    return {
      Version: 'inbox-desk',
      LatestVersion: '',
      Database: 'mail.sqlite',
      DatabaseSize: 0,
      Messages: total,
      Unread: unread,
      Tags: Object.fromEntries(team.tagCounts()),
      RuntimeStats: { Uptime: Math.round((Date.now() - started) / 1000), Memory: process.memoryUsage().rss, MessagesDeleted: 0, SMTPAccepted: 0, SMTPAcceptedSize: 0, SMTPRejected: 0, SMTPIgnored: 0 },
    };
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/messages', async (request) => {
    const team = request.team;
    const start = count(request.query.start, 0);
    const limit = Math.max(1, count(request.query.limit, 50));
    const all = counts(team);
    const page = team.deliveryPage(start, limit).deliveries.map((rows) => ({ email: rows[0]!, rows }));
    return listBody(team, { messages: page, total: all.total }, start, all, all.unread);
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/search', async (request, reply) => {
    const team = request.team;
    if (!request.query.query) return badRequest(reply, 'query is required: a Mailpit search, such as to:you@example.test');
    const start = count(request.query.start, 0);
    const limit = Math.max(1, count(request.query.limit, 50));
    const found = messagesOf(search(team, parseSearch(request.query.query)));
    return listBody(team, { messages: whole(team, found.slice(start, start + limit)), total: found.length }, start, counts(team), unreadOf(found));
  });

  app.put('/api/v1/messages', async (request, reply) => {
    const team = request.team;
    const body = (request.body ?? {}) as Ids;
    const read = body.Read === true ? new Date() : null;
    const ids = idsOf(body);
    const targets = ids
      ? ids.flatMap((id) => messageById(team, id)?.rows ?? [])
      : typeof body.Search === 'string' && body.Search
        ? whole(team, messagesOf(search(team, parseSearch(body.Search)))).flatMap((m) => m.rows)
        : team.query({});
    team.transaction(() => {
      for (const row of targets) team.updateEmail(row.id, { read });
    });
    return ok(reply);
  });

  app.delete('/api/v1/messages', async (request, reply) => {
    const team = request.team;
    const ids = idsOf(request.body);
    if (ids === null) team.deleteAll();
    else {
      const rows = ids.flatMap((id) => messageById(team, id)?.rows ?? []);
      team.transaction(() => rows.forEach((row) => team.deleteEmail(row.id)));
    }
    return ok(reply);
  });

  app.delete<{ Querystring: Record<string, string> }>('/api/v1/search', async (request, reply) => {
    const team = request.team;
    if (!request.query.query) return badRequest(reply, 'query is required: a Mailpit search, such as to:you@example.test');
    const rows = whole(team, messagesOf(search(team, parseSearch(request.query.query)))).flatMap((m) => m.rows);
    team.transaction(() => rows.forEach((row) => team.deleteEmail(row.id)));
    return ok(reply);
  });

  app.get<{ Params: { id: string } }>('/api/v1/message/:id', async (request, reply) => {
    const team = request.team;
    const message = messageById(team, request.params.id);
    if (!message) return notFound(reply);
    // Mailpit marks a message read when it is fetched whole.
    if (message.email.read === null) {
      const read = new Date();
      team.transaction(() => message.rows.forEach((row) => team.updateEmail(row.id, { read })));
      message.email.read = read;
    }
    return detail(team, message);
  });

  app.get<{ Params: { id: string } }>('/api/v1/message/:id/raw', async (request, reply) => {
    const email = emailById(request.team, request.params.id);
    const raw = email ? request.team.content(email.id)?.raw : undefined;
    if (!raw) return notFound(reply);
    return reply.type('text/plain; charset=utf-8').send(raw);
  });

  app.get<{ Params: { id: string } }>('/api/v1/message/:id/headers', async (request, reply) => {
    const email = emailById(request.team, request.params.id);
    const raw = email ? request.team.content(email.id)?.raw : undefined;
    if (!raw) return notFound(reply);
    const headers: Record<string, string[]> = {};
    const spelling = new Map<string, string>();
    for (const { name, value } of headerBlock(raw)) {
      const key = spelling.get(name.toLowerCase()) ?? name;
      spelling.set(name.toLowerCase(), key);
      (headers[key] ??= []).push(value);
    }
    return Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
  });

  app.get<{ Params: { id: string; part: string } }>('/api/v1/message/:id/part/:part', async (request, reply) => {
    const email = emailById(request.team, request.params.id);
    const raw = email ? request.team.content(email.id)?.raw : undefined;
    if (!email || !raw) return notFound(reply);
    const index = count(request.params.part, 0) - 1;
    const attachment = email.attachments[index];
    const content = attachment ? (await parseMessage(raw)).attachments[index]?.content : undefined;
    if (!attachment || !content) return reply.code(404).type('text/plain; charset=utf-8').send('part not found');
    return reply
      .type(attachment.contentType)
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(attachment.fileName)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .send(content);
  });

  // The bodies as a browser shows them: sandboxed (no script, an opaque origin), nothing fetched from outside.
  app.get<{ Params: { file: string } }>('/view/:file', async (request, reply) => {
    const match = /^(.+)\.(html|txt)$/.exec(request.params.file);
    const email = match ? emailById(request.team, match[1]!) : null;
    const content = email ? request.team.content(email.id) : null;
    if (!match || !content) return notFound(reply);
    reply.header('X-Content-Type-Options', 'nosniff');
    if (match[2] === 'txt') return reply.type('text/plain; charset=utf-8').send(content.text ?? '');
    return reply
      .header('Content-Security-Policy', "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data: cid:; font-src data:")
      .type('text/html; charset=utf-8')
      .send(content.html ?? '');
  });

  // Mailpit has no wait: a suite polls its search and races the window. This one is held until the mail is here.
  app.get<{ Querystring: Record<string, string> }>('/api/v1/wait', async (request, reply) => {
    return waitAnswer(request, reply, options.waits, (team, after) => {
      const terms = parseSearch(request.query.query ?? '');
      const found = search(team, terms, after);
      return found.at(-1) ?? null;
    });
  });
}

/** A wait, as both APIs answer it: the email in `shape`, or 400 / 429 / 504 with a sentence. */
export async function waitAnswer<T extends object>(
  request: FastifyRequest<{ Querystring: Record<string, string> }>,
  reply: FastifyReply,
  waits: WaitRoom,
  find: (team: TeamStore, after: number) => StoredEmail | null,
  shape: (team: TeamStore, email: StoredEmail) => Promise<T> | T = ((team: TeamStore, email: StoredEmail) => detail(team, whole(team, [{ email, rows: [email] }])[0]!)) as unknown as (team: TeamStore, email: StoredEmail) => Promise<T>,
): Promise<unknown> {
  const team = request.team;
  const asked = readWaitQuery(request.query, team.cursor());
  if (!asked.ok) return reply.code(400).type('application/json; charset=utf-8').send({ message: asked.message });
  const after = asked.after ?? team.cursor();
  const aborted = new AbortController();
  request.raw.once('close', () => aborted.abort());
  reply.raw.once('close', () => aborted.abort());
  let email: StoredEmail | null;
  try {
    email = await waits.wait({ teamId: team.id, client: request.ip, timeoutMs: asked.timeoutMs, signal: aborted.signal }, () => find(team, after));
  } catch (error) {
    if (error instanceof TooManyWaits) return reply.code(429).type('application/json; charset=utf-8').send({ message: error.message });
    throw error;
  }
  if (email === null) {
    if (aborted.signal.aborted) return reply;
    return reply
      .code(504)
      .type('application/json; charset=utf-8')
      .send({ message: `No email matching the wait arrived within ${asked.timeoutMs / 1000} s.`, cursor: String(after) });
  }
  return shape(team, email);
}
