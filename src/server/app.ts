import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AUTOMATION_INPUT_FIELDS, validateAutomationInput, type AutomationInput, type Validation } from '../shared/domain/automation.ts';
import { compilePattern } from '../shared/domain/pattern.ts';
import { BODY_FORMATS } from '../shared/domain/email.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/domain/list-query.ts';
import { negotiate } from './negotiate.ts';
import type { ReferenceService } from './service.ts';
import { automationResource, emailResource, type ListFilters, type TeamStore } from './team-store.ts';

export const VENDOR_JSON = 'application/vnd.service.v1+json';
/** Bodies of automation writes; anything larger answers 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  /** Requests per minute per client; 0 or absent turns the limit off. */
  rateLimit?: number;
  logger?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    team: TeamStore;
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

function notFound(reply: FastifyReply, model: string, id: string) {
  return reply.code(404).send({ message: `No query results for model [App\\${model}] ${id}` });
}

function unprocessable(reply: FastifyReply, errors: Record<string, string[]>) {
  const [first] = Object.values(errors).flat();
  return reply.code(422).send({ message: first ?? 'The given data was invalid.', errors });
}

/**
 * The shared rules, then what only the service decides: criteria must compile
 * on its linear-time engine (RE2: no backreferences or lookaround).
 */
function checkAutomation(body: unknown): Validation<Required<AutomationInput>> {
  const checked = validateAutomationInput(body);
  if (!checked.ok) return checked;
  const errors: Record<string, string[]> = {};
  for (const field of ['subject', 'sender', 'inbox'] as const) {
    const source = checked.value[field];
    if (source === null) continue;
    const compiled = compilePattern(source);
    if (!compiled.ok) errors[field] = [compiled.message];
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : checked;
}

/** A fixed window per client: every answer says how much is left. */
function createRateLimiter(perMinute: number) {
  const windows = new Map<string, { start: number; count: number }>();
  return (key: string, reply: FastifyReply): boolean => {
    const now = Date.now();
    let window = windows.get(key);
    if (!window || now - window.start >= 60_000) {
      window = { start: now, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    reply.header('X-RateLimit-Limit', perMinute);
    reply.header('X-RateLimit-Remaining', Math.max(0, perMinute - window.count));
    if (window.count <= perMinute) return true;
    const retryAfter = Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
    reply.header('Retry-After', retryAfter);
    void reply.code(429).send({ message: 'Too Many Attempts.' });
    return false;
  };
}

export function buildApp(service: ReferenceService, options: AppOptions = {}): FastifyInstance {
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: BODY_LIMIT_BYTES });
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(VENDOR_JSON, { parseAs: 'string' }, jsonParser);

  // Laravel-style bodies for the framework's own errors (bad JSON, 413, 415).
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    void reply.code(status).send({ message: status === 500 ? 'Server Error' : error.message });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'Not Found' }));

  const limit = options.rateLimit ? createRateLimiter(options.rateLimit) : null;

  void app.register(
    async (teamRoutes) => {
      teamRoutes.addHook('onRequest', async (request: TeamRequest, reply) => {
        const header = request.headers.authorization ?? '';
        const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
        if (limit && !limit(token || request.ip, reply)) return reply;
        const teamId = token ? service.teamForToken(token) : null;
        if (teamId === null) return reply.code(401).send({ message: 'Unauthenticated.' });
        if (teamId !== request.params.teamId) return reply.code(403).send({ message: 'This action is unauthorized.' });
        request.team = service.team(teamId);
      });

      teamRoutes.get('/emails', async (request: TeamRequest, reply) => {
        const query = request.query as Record<string, unknown>;
        const filters: ListFilters = {};
        const errors: Record<string, string[]> = {};
        for (const key of ['inbox', 'sender', 'subject', 'search'] as const) {
          const value = firstString(query[key]);
          if (value !== undefined && value !== '') filters[key] = value;
        }
        for (const key of ['since', 'until'] as const) {
          const value = firstString(query[key]);
          if (value === undefined || value === '') continue;
          const date = new Date(value);
          if (Number.isNaN(date.getTime())) errors[key] = [`The ${key} is not a valid date.`];
          else filters[key] = date;
        }
        if (Object.keys(errors).length > 0) return unprocessable(reply, errors);
        filters.unread = isTruthy(firstString(query.unread));
        filters.favorite = isTruthy(firstString(query.favorite));
        if (filters.inbox && !request.team.knowsAddress(filters.inbox)) return notFound(reply, 'Inbox', filters.inbox);
        if (filters.sender && !request.team.knowsAddress(filters.sender)) return notFound(reply, 'Sender', filters.sender);

        const requestedPage = Number.parseInt(firstString(query.page) ?? '', 10);
        const page = Number.isInteger(requestedPage) && requestedPage >= 1 ? requestedPage : 1;
        const requestedLimit = Number.parseInt(firstString(query.limit) ?? '', 10);
        const perPage = Number.isInteger(requestedLimit)
          ? Math.min(MAX_PAGE_SIZE, Math.max(1, requestedLimit))
          : DEFAULT_PAGE_SIZE;

        const matches = request.team.query(filters);
        const lastPage = Math.max(1, Math.ceil(matches.length / perPage));
        const slice = matches.slice((page - 1) * perPage, page * perPage);
        const path = `${request.protocol}://${request.host}/api/teams/${encodeURIComponent(request.team.id)}/emails`;
        const pageUrl = (n: number) => {
          const params = new URLSearchParams();
          for (const [key, value] of Object.entries(query)) {
            const text = firstString(value);
            if (key !== 'page' && text !== undefined) params.set(key, text);
          }
          params.set('page', String(n));
          return `${path}?${params}`;
        };
        const from = slice.length > 0 ? (page - 1) * perPage + 1 : null;
        return {
          data: slice.map(emailResource),
          links: {
            first: pageUrl(1),
            last: pageUrl(lastPage),
            prev: page > 1 ? pageUrl(Math.min(page - 1, lastPage)) : null,
            next: page < lastPage ? pageUrl(page + 1) : null,
          },
          meta: {
            current_page: page,
            from,
            last_page: lastPage,
            path,
            per_page: perPage,
            to: from === null ? null : from + slice.length - 1,
            total: matches.length,
          },
        };
      });

      teamRoutes.get('/emails/:id', async (request: TeamRequest, reply) => {
        const email = request.team.emails.get(request.params.id ?? '');
        if (!email) return notFound(reply, 'Email', request.params.id ?? '');
        const offered = [
          ...(email.html !== null ? [BODY_FORMATS.html] : []),
          ...(email.text !== null ? [BODY_FORMATS.text] : []),
          BODY_FORMATS.raw,
          'application/json',
          VENDOR_JSON,
        ];
        reply.header('Vary', 'Accept');
        const chosen = negotiate(request.headers.accept, offered);
        switch (chosen) {
          case null:
            return reply
              .code(406)
              .send({ error: `Not acceptable 'Accept' header. Please use this list: ${offered.join(', ')}` });
          case BODY_FORMATS.html:
            return reply.type('text/html; charset=UTF-8').send(email.html);
          case BODY_FORMATS.text:
            return reply.type('text/plain; charset=UTF-8').send(email.text);
          case BODY_FORMATS.raw:
            return reply.type('message/rfc2822').send(email.raw);
          default:
            // The JSON read is what marks an email read, as in the real service.
            email.read ??= new Date();
            service.scheduleSave(request.team.id);
            return reply.type(chosen).send(JSON.stringify({ data: emailResource(email) }));
        }
      });

      teamRoutes.delete('/emails/:id', async (request: TeamRequest, reply) => {
        const id = request.params.id ?? '';
        if (!request.team.deleteEmail(id)) return notFound(reply, 'Email', id);
        service.scheduleSave(request.team.id);
        return reply.code(200).send('');
      });

      const setFavorite = (favorite: boolean) => async (request: TeamRequest, reply: FastifyReply) => {
        const email = request.team.emails.get(request.params.id ?? '');
        if (!email) return notFound(reply, 'Email', request.params.id ?? '');
        email.favorite = favorite;
        service.scheduleSave(request.team.id);
        return reply.code(200).send('');
      };
      teamRoutes.post('/emails/:id/favorites', setFavorite(true));
      teamRoutes.delete('/emails/:id/favorites', setFavorite(false));

      teamRoutes.get('/emails/:id/attachments/:attachmentId', async (request: TeamRequest, reply) => {
        const email = request.team.emails.get(request.params.id ?? '');
        if (!email) return notFound(reply, 'Email', request.params.id ?? '');
        const attachment = email.attachments.find((a) => a.id === request.params.attachmentId);
        if (!attachment) return notFound(reply, 'Attachment', request.params.attachmentId ?? '');
        return reply
          .type(attachment.contentType)
          .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(attachment.fileName)}`)
          .header('X-Content-Type-Options', 'nosniff')
          .send(attachment.content);
      });

      teamRoutes.get('/automations', async (request: TeamRequest) => ({
        data: [...request.team.automations.values()].map(automationResource),
      }));

      teamRoutes.post('/automations', async (request: TeamRequest, reply) => {
        const checked = checkAutomation(request.body);
        if (!checked.ok) return unprocessable(reply, checked.errors);
        const automation = request.team.createAutomation(checked.value);
        service.scheduleSave(request.team.id);
        return reply.code(201).type(VENDOR_JSON).send(JSON.stringify({ data: automationResource(automation) }));
      });

      teamRoutes.put('/automations/:id', async (request: TeamRequest, reply) => {
        const automation = request.team.automations.get(request.params.id ?? '');
        if (!automation) return notFound(reply, 'Automation', request.params.id ?? '');
        const checked = checkAutomation(request.body);
        if (!checked.ok) return unprocessable(reply, checked.errors);
        // Fields left out of the body keep their value; a failed request changed nothing.
        const body = request.body as Record<string, unknown>;
        for (const field of AUTOMATION_INPUT_FIELDS) {
          if (field in body) Object.assign(automation, { [field]: checked.value[field] });
        }
        automation.updated_at = new Date();
        service.scheduleSave(request.team.id);
        return reply.type(VENDOR_JSON).send(JSON.stringify({ data: automationResource(automation) }));
      });

      teamRoutes.delete('/automations/:id', async (request: TeamRequest, reply) => {
        const id = request.params.id ?? '';
        if (!request.team.automations.delete(id)) return notFound(reply, 'Automation', id);
        service.scheduleSave(request.team.id);
        return reply.code(200).send('');
      });
    },
    { prefix: '/api/teams/:teamId' },
  );

  return app;
}
