/** The emails resource: the list, one email in any of its forms, delete, stars, attachments. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BODY_FORMATS } from '../../shared/domain/email.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../shared/domain/list-query.ts';
import { parseMessage } from '../ingest.ts';
import { AttachmentParams, DeleteAllQuery, EmailList, EmailParams, EmailResource, ErrorBody, ListQuery, WholeQuery } from '../schemas.ts';
import type { ListFilters, TeamStore } from '../team-store.ts';
import { answer, type RouteOptions } from './answer.ts';

export async function emailRoutes(app: FastifyInstance, route: RouteOptions): Promise<void> {
  const { wire } = route;
  app.get<{ Querystring: z.infer<typeof ListQuery> }>('/emails', { schema: { querystring: ListQuery, response: { 200: EmailList, '4xx': ErrorBody } } }, async (request, reply) => {
    const query = request.query;
    const { inbox, sender, subject, search, since, until } = query;
    const filters: ListFilters = { inbox, sender, subject, search, since, until, unread: query.unread, favorite: query.favorite, grouped: query.group === 'delivery' || undefined };
    for (const key of Object.keys(filters) as (keyof ListFilters)[]) if (filters[key] === undefined) delete filters[key];
    // An address the service has never seen: the real service's firstOrFail answers 404.
    for (const [model, address] of [['Inbox', inbox], ['Sender', sender]] as const) {
      if (address && !request.team.knowsAddress(address)) return answer(reply, route, wire.notFound(request, { model, id: address, byValue: true }));
    }
    const page = query.page !== undefined && query.page >= 1 ? query.page : 1;
    const perPage = query.limit !== undefined ? Math.min(MAX_PAGE_SIZE, Math.max(1, query.limit)) : DEFAULT_PAGE_SIZE;
    const { emails, total } = request.team.page(filters, (page - 1) * perPage, perPage);
    // Where the store stood when this page was read: a wait `after` it gets only mail that came later.
    reply.header('X-Inbox-Desk-Cursor', String(request.team.cursor()));
    const path = `${request.protocol}://${request.host}${wire.apiPath(request.team.id)}/emails`;
    // The query as sent, first values only, for the links and the echoes.
    const sent: Record<string, string> = {};
    for (const [key, value] of new URL(request.raw.url ?? '/', 'http://x').searchParams) if (!Object.hasOwn(sent, key)) sent[key] = value;
    return answer(reply, route, wire.list({ emails, total, page, perPage, query: sent, path }));
  });

  /** The email alone, or with `whole=delivery` every row of its delivery. */
  const targets = (request: { team: TeamStore; params: { id: string }; query: { whole?: 'delivery' } }) =>
    request.query.whole === 'delivery' ? request.team.deliveryRows(request.params.id).map((row) => row.id) : [request.params.id];

  app.get<{ Params: z.infer<typeof EmailParams>; Querystring: z.infer<typeof WholeQuery> }>('/emails/:id', { schema: { params: EmailParams, querystring: WholeQuery, response: { 200: z.object({ data: EmailResource }), '4xx': ErrorBody } } }, async (request, reply) => {
    const email = request.team.getEmail(request.params.id);
    if (!email) return answer(reply, route, wire.notFound(request, { model: 'Email', id: request.params.id }));
    reply.header('Vary', 'Accept');
    const offered = { html: email.hasHtml, text: email.hasText };
    const chosen = wire.negotiate(request.headers.accept, offered);
    switch (chosen) {
      case null:
        return answer(reply, route, wire.notAcceptable(offered));
      case BODY_FORMATS.html:
        return reply.type('text/html; charset=UTF-8').send(request.team.content(email.id)?.html);
      case BODY_FORMATS.text:
        return reply.type('text/plain; charset=UTF-8').send(request.team.content(email.id)?.text);
      case BODY_FORMATS.raw:
        return answer(reply, route, wire.raw(request.team.content(email.id)?.raw ?? Buffer.alloc(0)));
      default:
        // The JSON read is what marks an email read, as in the real service;
        // reading an email already read changes nothing, so nothing is written.
        if (email.read === null) {
          const read = new Date();
          email.read = read;
          request.team.transaction(() => targets(request).forEach((id) => request.team.updateEmail(id, { read })));
        }
        if (request.query.whole === 'delivery') email.deliveredTo = request.team.deliveryRows(email.id).map((row) => row.inbox);
        return answer(reply, route, { status: 200, type: chosen, body: { data: wire.emailResource(email) } });
    }
  });

  if (wire.deletesAll) {
    // Every email of the team (the catcher's "delete all", sent once its Undo window has passed),
    // or every one that arrived by `through`: mail that came in meanwhile stays.
    app.delete<{ Querystring: z.infer<typeof DeleteAllQuery> }>(
      '/emails',
      { schema: { querystring: DeleteAllQuery, response: { 200: z.object({ deleted: z.number().int().min(0) }) } } },
      async (request, reply) => answer(reply, route, { status: 200, type: 'application/json', body: { deleted: request.team.deleteAll(request.query.through) } }),
    );
  }

  app.delete<{ Params: z.infer<typeof EmailParams>; Querystring: z.infer<typeof WholeQuery> }>('/emails/:id', { schema: { params: EmailParams, querystring: WholeQuery } }, async (request, reply) => {
    const ids = targets(request);
    const deleted = request.team.transaction(() => ids.filter((id) => request.team.deleteEmail(id)).length);
    return answer(reply, route, deleted > 0 ? wire.empty() : wire.notFound(request, { model: 'Email', id: request.params.id }));
  });

  for (const [method, favorite] of [['POST', true], ['DELETE', false]] as const) {
    app.route<{ Params: z.infer<typeof EmailParams>; Querystring: z.infer<typeof WholeQuery> }>({
      method,
      url: '/emails/:id/favorites',
      schema: { params: EmailParams, querystring: WholeQuery },
      handler: async (request, reply) => {
        const ids = targets(request);
        const changed = request.team.transaction(() => ids.filter((id) => request.team.updateEmail(id, { favorite })).length);
        return answer(reply, route, changed > 0 ? wire.empty() : wire.notFound(request, { model: 'Email', id: request.params.id }));
      },
    });
  }

  app.get<{ Params: z.infer<typeof AttachmentParams> }>('/emails/:id/attachments/:attachmentId', { schema: { params: AttachmentParams } }, async (request, reply) => {
    const email = request.team.getEmail(request.params.id);
    if (!email) return answer(reply, route, wire.notFound(request, { model: 'Email', id: request.params.id }));
    const index = email.attachments.findIndex((a) => a.id === request.params.attachmentId);
    const attachment = email.attachments[index];
    if (!attachment) return answer(reply, route, wire.notFound(request, { model: 'Attachment', id: request.params.attachmentId }));
    // Attachments are not stored twice: they are cut from the raw message when asked for.
    const raw = request.team.content(email.id)?.raw;
    const content = raw ? (await parseMessage(raw)).attachments[index]?.content : undefined;
    if (!content) return answer(reply, route, wire.notFound(request, { model: 'Attachment', id: attachment.id }));
    return reply
      .type(attachment.contentType)
      .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(attachment.fileName)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .send(content);
  });
}
