import { WILDCARD_LIMIT as FILTER_LIMIT } from './wildcard.ts';
import { timingSafeEqual } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { BODY_FORMATS } from '../shared/domain/email.ts';
import { DEFAULT_FLAVOR, type FlavorName } from '../shared/domain/flavor.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/domain/list-query.ts';
import { parseMessage } from './ingest.ts';
import { laravelPrefers, negotiate } from './negotiate.ts';
import { phpJsonEncode } from '../shared/domain/webhook-payload.ts';
import type { ReferenceService } from './service.ts';
import { ColumnCannotBeNull, SERVER_FLAVORS } from './flavors.ts';
import type { ListFilters, StoredAutomation, TeamStore } from './team-store.ts';

/** Bodies of automation writes; anything larger answers 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  /** Requests per minute per client; 0 or absent turns the limit off. */
  rateLimit?: number;
  /** The rate window (tests shorten it; the real services' is a minute). */
  rateWindowMs?: number;
  logger?: boolean;
  /** Which wire to speak (flavors.ts); the API document's by default. */
  flavor?: FlavorName;
  /** MailCare only: require this HTTP Basic login (otherwise no auth, as MAILCARE_AUTH=false). */
  basic?: { user: string; password: string };
  /** MailCare only: false answers 403 on every automation route (MAILCARE_AUTOMATIONS=false). */
  automations?: boolean;
  /** MailCare flavor: forwarding allowed (MAILCARE_FORWARD), so rules may have an action_email. */
  forward?: boolean;
  /** Sees every answer: an access log for tests and benchmarks. */
  onResponse?: (entry: AccessLogEntry) => void;
}

export interface AccessLogEntry {
  method: string;
  url: string;
  status: number;
  accept: string | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    team: TeamStore;
    /** Laravel renders its HTML error page to clients that do not ask for JSON (MailCare). */
    htmlErrors?: boolean;
  }
}

type TeamRequest = FastifyRequest<{ Params: { teamId: string; id?: string; attachmentId?: string } }>;

function isTruthy(value: unknown): boolean {
  return typeof value === 'string' && !['', '0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

function firstString(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstString(value[0]);
  return typeof value === 'string' ? value : undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** Laravel answers JSON errors only when the first acceptable type is JSON. */
function wantsJson(request: FastifyRequest): boolean {
  const first = (request.headers.accept ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.includes('/json') || first.includes('+json');
}

/** Laravel's ModelNotFoundException: with the id for route binding, without it for a lookup by value (firstOrFail). */
/**
 * Laravel's pagination links (LengthAwarePaginator::linkCollection with
 * UrlWindow, three pages each side): Previous, the pages (with "..." where
 * some are left out), Next.
 */
function paginatorLinks(page: number, lastPage: number, pageUrl: (n: number) => string, prev: string | null, next: string | null): { url: string | null; label: string; active: boolean }[] {
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const window = 6;
  let groups: (number[] | '...')[];
  if (lastPage < window + 8) groups = [range(1, lastPage)];
  else if (page <= window) groups = [range(1, window + 2), '...', range(lastPage - 1, lastPage)];
  else if (page > lastPage - window) groups = [range(1, 2), '...', range(lastPage - (window + 2), lastPage)];
  else groups = [range(1, 2), '...', range(page - 3, page + 3), '...', range(lastPage - 1, lastPage)];
  return [
    { url: prev, label: '&laquo; Previous', active: false },
    ...groups.flatMap((group): { url: string | null; label: string; active: boolean }[] =>
      group === '...' ? [{ url: null, label: '...', active: false }] : group.map((n) => ({ url: pageUrl(n), label: String(n), active: n === page })),
    ),
    { url: next, label: 'Next &raquo;', active: false },
  ];
}

function notFound(reply: FastifyReply, model: string, id?: string) {
  if (reply.request.htmlErrors && !wantsJson(reply.request)) {
    return reply.code(404).type('text/html; charset=UTF-8').send('<!DOCTYPE html><html><head><title>Not Found</title></head><body><div class="code">404</div><div class="message">Not Found</div></body></html>');
  }
  return reply.code(404).send({ message: `No query results for model [App\\${model}]${id === undefined ? '.' : ` ${id}`}` });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A 422 with the errors by field; Laravel 8 (MailCare) says only that the data was invalid, later versions the first error. */
function unprocessable(reply: FastifyReply, errors: Record<string, string[]>, laravel8 = false) {
  const [first] = Object.values(errors).flat();
  return reply.code(422).send({ message: laravel8 ? 'The given data was invalid.' : (first ?? 'The given data was invalid.'), errors });
}

/** A fixed window per client: every answer says how much is left. */
function createRateLimiter(perMinute: number, windowMs = 60_000) {
  const windows = new Map<string, { start: number; count: number }>();
  return (key: string, reply: FastifyReply): boolean => {
    const now = Date.now();
    let window = windows.get(key);
    if (!window || now - window.start >= windowMs) {
      window = { start: now, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    reply.header('X-RateLimit-Limit', perMinute);
    reply.header('X-RateLimit-Remaining', Math.max(0, perMinute - window.count));
    if (window.count <= perMinute) return true;
    const retryAfter = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    reply.header('Retry-After', retryAfter);
    void reply.code(429).send({ message: 'Too Many Attempts.' });
    return false;
  };
}

export function buildApp(service: ReferenceService, options: AppOptions = {}): FastifyInstance {
  const flavor = SERVER_FLAVORS[options.flavor ?? DEFAULT_FLAVOR];
  // Closing the service ends every connection, even one a client stopped reading from.
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true });
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(flavor.vendorType, { parseAs: 'string' }, jsonParser);
  // Automation writes are JSON: anything else (text/plain included) is 415.
  app.removeContentTypeParser('text/plain');

  // Laravel-style bodies for the framework's own errors (bad JSON, 413, 415).
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error instanceof ColumnCannotBeNull ? 500 : error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    void reply.code(status).send({ message: status === 500 ? 'Server Error' : error.message });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'Not Found' }));
  /** An empty 200: Laravel's default response is HTML. */
  const done = (reply: FastifyReply) => reply.code(200).type(flavor.laravel ? 'text/html; charset=UTF-8' : 'text/plain; charset=utf-8').send('');
  if (flavor.laravel) {
    // JSON as Laravel sends it: PHP's json_encode bytes, application/json without a charset,
    // the vendor type with MailCare's "; charset=UTF-8".
    app.addHook('onSend', async (_request, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '').toLowerCase();
      if (typeof payload !== 'string' || !(type.startsWith('application/json') || type.startsWith(flavor.vendorType))) return payload;
      let value: unknown;
      try {
        value = JSON.parse(payload);
      } catch {
        return payload;
      }
      reply.header('content-type', type.startsWith('application/json') ? 'application/json' : `${flavor.vendorType}; charset=UTF-8`);
      return Buffer.from(phpJsonEncode(value));
    });
  }

  const limit = options.rateLimit ? createRateLimiter(options.rateLimit, options.rateWindowMs) : null;
  const observe = options.onResponse;
  if (observe) {
    app.addHook('onResponse', async (request, reply) => {
      observe({ method: request.method, url: request.url, status: reply.statusCode, accept: request.headers.accept });
    });
  }

  void app.register(
    async (teamRoutes) => {
      teamRoutes.addHook('onRequest', async (request: TeamRequest, reply) => {
        const header = request.headers.authorization ?? '';
        if (flavor.teams) {
          const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
          if (limit && !limit(token || request.ip, reply)) return reply;
          const teamId = token ? service.teamForToken(token) : null;
          if (teamId === null) return reply.code(401).send({ message: 'Unauthenticated.' });
          if (teamId !== request.params.teamId) return reply.code(403).send({ message: 'This action is unauthorized.' });
          request.team = service.team(teamId);
          return;
        }
        // MailCare: one mailbox store, no teams; HTTP Basic when configured, else open.
        if (limit && !limit(request.ip, reply)) return reply;
        request.htmlErrors = true;
        if (options.basic) {
          const encoded = /^Basic\s+(.+)$/i.exec(header)?.[1] ?? '';
          const [user, ...rest] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
          if (!sameSecret(user ?? '', options.basic.user) || !sameSecret(rest.join(':'), options.basic.password)) {
            return reply.code(401).header('WWW-Authenticate', 'Basic').send({ message: 'Invalid credentials.' });
          }
        }
        request.team = service.team(service.defaultTeamId);
      });

      teamRoutes.get('/emails', async (request: TeamRequest, reply) => {
        const query = request.query as Record<string, unknown>;
        const filters: ListFilters = {};
        const errors: Record<string, string[]> = {};
        for (const key of ['inbox', 'sender', 'subject', 'search'] as const) {
          const value = firstString(query[key]);
          if (value === undefined || value === '') continue;
          // Every filter's work grows with its length: a long one is refused, not scanned.
          if (value.length > FILTER_LIMIT) errors[key] = [`The ${key} may not be greater than ${FILTER_LIMIT} characters.`];
          else filters[key] = value;
        }
        for (const key of ['since', 'until'] as const) {
          const value = firstString(query[key]);
          if (value === undefined || value === '') continue;
          const date = new Date(value);
          if (Number.isNaN(date.getTime())) errors[key] = [`The ${key} is not a valid date.`];
          else filters[key] = date;
        }
        if (Object.keys(errors).length > 0) return unprocessable(reply, errors, flavor.laravel);
        filters.unread = isTruthy(firstString(query.unread));
        filters.favorite = isTruthy(firstString(query.favorite));
        // MailCare's EmailFilters look the address up with firstOrFail: the message names no value.
        if (filters.inbox && !request.team.knowsAddress(filters.inbox)) return notFound(reply, 'Inbox', flavor.laravel ? undefined : filters.inbox);
        if (filters.sender && !request.team.knowsAddress(filters.sender)) return notFound(reply, 'Sender', flavor.laravel ? undefined : filters.sender);

        const requestedPage = Number.parseInt(firstString(query.page) ?? '', 10);
        const page = Number.isInteger(requestedPage) && requestedPage >= 1 ? requestedPage : 1;
        const requestedLimit = Number.parseInt(firstString(query.limit) ?? '', 10);
        const perPage = Number.isInteger(requestedLimit)
          ? Math.min(MAX_PAGE_SIZE, Math.max(1, requestedLimit))
          : DEFAULT_PAGE_SIZE;

        const { emails: slice, total } = request.team.page(filters, (page - 1) * perPage, perPage);
        const lastPage = Math.max(1, Math.ceil(total / perPage));
        const path = `${request.protocol}://${request.host}${flavor.teams ? `/api/teams/${encodeURIComponent(request.team.id)}` : '/api'}/emails`;
        // Laravel's paginator (MailCare) links carry the page alone; ours keep the other filters.
        const pageUrl = (n: number) => {
          const params = new URLSearchParams();
          for (const [key, value] of Object.entries(query)) {
            const text = firstString(value);
            if (!flavor.laravel && key !== 'page' && text !== undefined) params.set(key, text);
          }
          params.set('page', String(n));
          return `${path}?${params}`;
        };
        const from = slice.length > 0 ? (page - 1) * perPage + 1 : null;
        reply.type(flavor.listType);
        const prev = page > 1 ? pageUrl(Math.min(page - 1, lastPage)) : null;
        const next = page < lastPage ? pageUrl(page + 1) : null;
        return {
          data: slice.map(flavor.emailResource),
          links: { first: pageUrl(1), last: pageUrl(lastPage), prev, next },
          meta: {
            current_page: page,
            from,
            last_page: lastPage,
            ...(flavor.laravel ? { links: paginatorLinks(page, lastPage, pageUrl, prev, next) } : {}),
            path,
            // Laravel echoes the limit as the query string had it.
            per_page: flavor.laravel && firstString(query.limit) ? firstString(query.limit) : perPage,
            to: from === null ? null : from + slice.length - 1,
            total,
          },
        };
      });

      teamRoutes.get('/emails/:id', async (request: TeamRequest, reply) => {
        const email = request.team.getEmail(request.params.id ?? '');
        if (!email) return notFound(reply, 'Email', request.params.id ?? '');
        const offered = [
          ...(email.hasHtml ? [BODY_FORMATS.html] : []),
          ...(email.hasText ? [BODY_FORMATS.text] : []),
          BODY_FORMATS.raw,
          'application/json',
          flavor.vendorType,
        ];
        reply.header('Vary', 'Accept');
        // MailCare: Request::prefers over [vendor, JSON, HTML, text, raw], less the bodies the email lacks.
        const laravelOffer = [flavor.vendorType, 'application/json', BODY_FORMATS.html, BODY_FORMATS.text, BODY_FORMATS.raw];
        const chosen = flavor.laravel
          ? laravelPrefers(request.headers.accept, laravelOffer.filter((type) => offered.includes(type)))
          : negotiate(request.headers.accept, offered);
        switch (chosen) {
          case null:
            return reply
              .code(406)
              .send({ error: `Not acceptable 'Accept' header. Please use this list: ${flavor.laravel ? `${laravelOffer.join(',')}.` : offered.join(', ')}` });
          case BODY_FORMATS.html:
            return reply.type('text/html; charset=UTF-8').send(request.team.content(email.id)?.html);
          case BODY_FORMATS.text:
            return reply.type('text/plain; charset=UTF-8').send(request.team.content(email.id)?.text);
          case BODY_FORMATS.raw: {
            const raw = request.team.content(email.id)?.raw ?? Buffer.alloc(0);
            // MailCare sends the raw message through Laravel's e(): htmlspecialchars without
            // ENT_SUBSTITUTE, which answers '' for bytes that are not UTF-8 (an 8-bit Latin-1 part).
            return flavor.escapesRaw
              ? reply.type('message/rfc2822; charset=UTF-8').send(isUtf8(raw) ? escapeHtml(raw.toString('utf8')) : '')
              : reply.type('message/rfc2822').send(raw);
          }
          default:
            // The JSON read is what marks an email read, as in the real service;
            // reading an email already read changes nothing, so nothing is written.
            if (email.read === null) {
              email.read = new Date();
              request.team.updateEmail(email.id, { read: email.read });
            }
            return reply.type(chosen).send(JSON.stringify({ data: flavor.emailResource(email) }));
        }
      });

      teamRoutes.delete('/emails/:id', async (request: TeamRequest, reply) => {
        const id = request.params.id ?? '';
        if (!request.team.deleteEmail(id)) return notFound(reply, 'Email', id);
        return done(reply);
      });

      const setFavorite = (favorite: boolean) => async (request: TeamRequest, reply: FastifyReply) => {
        if (!request.team.updateEmail(request.params.id ?? '', { favorite })) return notFound(reply, 'Email', request.params.id ?? '');
        return done(reply);
      };
      teamRoutes.post('/emails/:id/favorites', setFavorite(true));
      teamRoutes.delete('/emails/:id/favorites', setFavorite(false));

      teamRoutes.get('/emails/:id/attachments/:attachmentId', async (request: TeamRequest, reply) => {
        const email = request.team.getEmail(request.params.id ?? '');
        if (!email) return notFound(reply, 'Email', request.params.id ?? '');
        const index = email.attachments.findIndex((a) => a.id === request.params.attachmentId);
        const attachment = email.attachments[index];
        if (!attachment) return notFound(reply, 'Attachment', request.params.attachmentId ?? '');
        // Attachments are not stored twice: they are cut from the raw message when asked for.
        const raw = request.team.content(email.id)?.raw;
        const content = raw ? (await parseMessage(raw)).attachments[index]?.content : undefined;
        if (!content) return notFound(reply, 'Attachment', attachment.id);
        return reply
          .type(attachment.contentType)
          .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(attachment.fileName)}`)
          .header('X-Content-Type-Options', 'nosniff')
          .send(content);
      });

      // MailCare with automations turned off answers 403 on all of these.
      const automationsOff = async (_request: FastifyRequest, reply: FastifyReply) => {
        if (options.automations === false) return reply.code(403).send({ message: '' });
      };
      const written = (reply: FastifyReply, code: number, automation: StoredAutomation) =>
        flavor.writeAnswer === 'empty'
          ? done(reply)
          : reply.code(code).type(flavor.vendorType).send(JSON.stringify({ data: flavor.automationResource(automation) }));

      teamRoutes.get('/automations', { onRequest: automationsOff }, async (request: TeamRequest) => ({
        data: [...request.team.automations.values()].map(flavor.automationResource),
      }));

      teamRoutes.post('/automations', { onRequest: automationsOff }, async (request: TeamRequest, reply) => {
        const checked = flavor.checkAutomation(request.body, { forward: options.forward });
        if (!checked.ok) return unprocessable(reply, checked.errors, flavor.laravel);
        const automation = request.team.createAutomation(checked.value);
        return written(reply, 201, automation);
      });

      teamRoutes.put('/automations/:id', { onRequest: automationsOff }, async (request: TeamRequest, reply) => {
        const automation = request.team.automations.get(request.params.id ?? '');
        if (!automation) return notFound(reply, 'Automation', request.params.id ?? '');
        const checked = flavor.checkAutomation(request.body, { forward: options.forward });
        if (!checked.ok) return unprocessable(reply, checked.errors, flavor.laravel);
        // A failed request changed nothing; a good one writes what the flavor writes.
        Object.assign(automation, flavor.updateFields(request.body as Record<string, unknown>, checked.value));
        automation.updated_at = new Date();
        request.team.saveAutomation(automation);
        return written(reply, 200, automation);
      });

      teamRoutes.delete('/automations/:id', { onRequest: automationsOff }, async (request: TeamRequest, reply) => {
        const id = request.params.id ?? '';
        if (!request.team.deleteAutomation(id)) return notFound(reply, 'Automation', id);
        return done(reply);
      });
    },
    { prefix: flavor.prefix },
  );

  return app;
}
