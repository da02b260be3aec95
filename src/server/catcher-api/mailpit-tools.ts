/**
 * Mailpit's tools beside its messages: send (a message given as JSON, taken
 * in as if it came over SMTP), tags, the link check and the SpamAssassin
 * check, in its shapes and with its words.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { checkLinks, PRIVATE_NOT_ALLOWED, urlsOf } from '../link-check.ts';
import { cleanTag, cleanTags } from '../message-tags.ts';
import type { ReferenceService } from '../service.ts';
import { SMTP_MAX_BYTES } from '../smtp.ts';
import { spamReport } from '../spamc.ts';
import { badRequest, emailById, idsOf, messageById, notFound, ok } from './mailpit-lookup.ts';
import { composeSend } from './mailpit-send.ts';

export async function mailpitToolRoutes(app: FastifyInstance, options: { service: ReferenceService }): Promise<void> {
  // Send: the message composed and taken in as SMTP mail is (waits, automations, retention); Mailpit answers its ID.
  // The body may carry attachments as large as SMTP takes, in base64.
  app.post('/api/v1/send', { bodyLimit: Math.ceil((SMTP_MAX_BYTES * 4) / 3) + 1024 * 1024 }, async (request, reply) => {
    const composed = await composeSend(request.body);
    if (typeof composed === 'string') return reply.code(400).type('application/json; charset=utf-8').send({ Error: composed });
    const [first] = await options.service.ingest(composed.raw, { teamId: request.team.id, recipients: composed.recipients });
    return { ID: first!.id };
  });

  // Tags, as Mailpit keeps them: on a message (all its recipients), names cleaned, one whatever the case.
  app.get('/api/v1/tags', async (request) => [...request.team.tagCounts().keys()]);
  app.put('/api/v1/tags', async (request, reply) => {
    const body = (request.body ?? {}) as { Tags?: unknown };
    if (body.Tags !== undefined && body.Tags !== null && !Array.isArray(body.Tags)) return badRequest(reply, 'Tags must be a list of names, such as {"IDs": ["…"], "Tags": ["signup"]}');
    const tags = cleanTags((body.Tags as unknown[] | null | undefined) ?? []);
    const team = request.team;
    team.transaction(() => {
      for (const id of idsOf(body) ?? []) {
        const message = messageById(team, id);
        if (message) team.setTags(message.email.delivery, tags);
      }
    });
    return ok(reply);
  });
  app.put<{ Params: { tag: string } }>('/api/v1/tags/:tag', async (request, reply) => {
    const from = request.params.tag;
    const to = cleanTag(String((request.body as { Name?: unknown } | null)?.Name ?? ''));
    if (to === '') return badRequest(reply, `invalid tag name: ${to}`);
    if (to === from) return ok(reply);
    const team = request.team;
    const inUse = team.tagCounts();
    const has = (name: string) => [...inUse.keys()].some((tag) => tag.toLowerCase() === name.toLowerCase());
    if (!has(from)) return badRequest(reply, `tag not found: ${from}`);
    if (to.toLowerCase() !== from.toLowerCase() && has(to)) return badRequest(reply, `tag already exists: ${to}`);
    team.renameTag(from, to);
    return ok(reply);
  });
  app.delete<{ Params: { tag: string } }>('/api/v1/tags/:tag', async (request, reply) => (request.team.deleteTag(request.params.tag) ? ok(reply) : badRequest(reply, `tag not found: ${request.params.tag}`)));

  // Link check, in Mailpit's shape: each link and image asked for (HEAD), in the order the message has them;
  // a private address only with --allow-private-webhooks (Mailpit's 451 otherwise), redirects followed on ?follow=true.
  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/api/v1/message/:id/link-check', async (request, reply) => {
    const email = emailById(request.team, request.params.id);
    const content = email ? request.team.content(email.id) : null;
    if (!content) return notFound(reply);
    const urls = urlsOf(content.html, content.text);
    const allowed = options.service.allowsPrivateTargets;
    const checked = await checkLinks(urls, async () => allowed, { follow: request.query.follow === 'true' });
    const links = checked.map((link) =>
      link.error === PRIVATE_NOT_ALLOWED
        ? { URL: link.url, StatusCode: 451, Status: 'Blocked private/reserved address' }
        : { URL: link.url, StatusCode: link.status, Status: link.error ?? STATUS_CODES[link.status] ?? '' },
    );
    return { Errors: links.filter((link) => link.StatusCode === 0 || link.StatusCode >= 400).length, Links: links };
  });

  // SpamAssassin's verdict in Mailpit's shape, from the spamd given with --spamd (as Mailpit's --enable-spamassassin);
  // spamd's own failure is the answer's Error, as Mailpit reports it.
  app.get<{ Params: { id: string } }>('/api/v1/message/:id/sa-check', async (request, reply) => {
    const address = options.service.spamd;
    if (address === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('SpamAssassin checks are off: give the catcher a spamd (npm run catch -- --spamd host:port; in the app, Settings → spamd)');
    const email = emailById(request.team, request.params.id);
    const raw = email ? request.team.content(email.id)?.raw : undefined;
    if (!raw) return notFound(reply);
    try {
      const report = await spamReport(raw, address);
      return { IsSpam: report.isSpam, Error: '', Score: report.score, Rules: report.rules.map((rule) => ({ Score: rule.points, Name: rule.name, Description: rule.description })) };
    } catch (error) {
      return { IsSpam: false, Error: (error as Error).message, Score: 0, Rules: [] };
    }
  });
}
