/**
 * The reference service's HTTP API, as Fastify meant it: one plugin per
 * resource (routes/), each route with zod schemas for its params, query,
 * body and answers; who is asking is settled first (authenticate), then the
 * rate limit counts per team (@fastify/rate-limit, keyed after auth, so a
 * made-up token earns no window of its own); every shape that differs
 * between MailCare and the API document's service is the wire's (flavors/),
 * never a branch in a route.
 */
import { timingSafeEqual } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import type { FlavorName } from '../shared/flavors/index.ts';
import { ColumnCannotBeNull, serverWire, type ServerWire } from './flavors/index.ts';
import { catcherApiRoutes, catcherSeedRoutes, WaitRoom } from './catcher-api/index.ts';
import { answer, type RouteOptions } from './routes/answer.ts';
import { automationRoutes } from './routes/automations.ts';
import { emailRoutes } from './routes/emails.ts';
import { healthRoutes } from './routes/health.ts';
import { fieldErrorsOf, FieldErrors } from './schemas.ts';
import type { ReferenceService } from './service.ts';
import type { TeamStore } from './team-store.ts';

/** Bodies of automation writes; anything larger answers 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOptions {
  /** Requests per minute per client; 0 or absent turns the limit off. */
  rateLimit?: number;
  /** The rate window (tests shorten it; the real services' is a minute). */
  rateWindowMs?: number;
  logger?: boolean;
  /** Which wire to speak (flavors/); the API document's by default. */
  flavor?: FlavorName;
  /** A server that asks for a login (MailCare's MAILCARE_AUTH): this HTTP Basic pair; otherwise none is asked. */
  basic?: { user: string; password: string };
  /** False answers 403 on every automation route (MailCare's MAILCARE_AUTOMATIONS=false). */
  automations?: boolean;
  /** Rules may forward by mail, so they may have an action_email (MailCare's MAILCARE_FORWARD). */
  forward?: boolean;
  /** Check every JSON answer against its route's response schema (tests); a mismatch is a 500. */
  checkResponses?: boolean;
  /** Sees every answer: an access log for tests and benchmarks. */
  onResponse?: (entry: AccessLogEntry) => void;
  /** A catcher's API for tests and agents too (catcher-api/): Mailpit's routes, the wait, each email's code, /mcp. */
  catcher?: boolean;
}

export interface AccessLogEntry {
  method: string;
  url: string;
  status: number;
  accept: string | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The team the request speaks for, settled by authenticate before anything else runs. */
    team: TeamStore;
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who is asking: a Bearer token names a team, and the path must be that
 * team's (the API document's service); or the one mailbox, behind an HTTP
 * Basic login when one is set (MailCare). Answers 401/403 itself.
 */
function authenticate(service: ReferenceService, wire: ServerWire, options: AppOptions) {
  return async (request: FastifyRequest<{ Params: { teamId?: string } }>, reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const refuse = (status: 401 | 403, message: string, headers?: Record<string, string>) =>
      answer(reply, { wire, checkResponses: false }, { status, type: 'application/json', body: { message }, ...(headers ? { headers } : {}) });
    if (wire.record.auth === 'bearer') {
      const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? '';
      const teamId = token ? service.teamForToken(token) : null;
      if (teamId === null) return refuse(401, 'Unauthenticated.');
      if (teamId !== request.params.teamId) return refuse(403, 'This action is unauthorized.');
      request.team = service.team(teamId);
      return;
    }
    if (options.basic) {
      const encoded = /^Basic\s+(.+)$/i.exec(header)?.[1] ?? '';
      const [user, ...rest] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
      if (!sameSecret(user ?? '', options.basic.user) || !sameSecret(rest.join(':'), options.basic.password)) {
        return refuse(401, 'Invalid credentials.', { 'WWW-Authenticate': 'Basic' });
      }
    }
    request.team = service.team(service.defaultTeamId);
  };
}

export function buildApp(service: ReferenceService, options: AppOptions = {}): FastifyInstance {
  const wire = serverWire(options.flavor);
  const route: RouteOptions = { wire, checkResponses: options.checkResponses === true, automations: options.automations !== false, forward: options.forward === true };
  // Closing the service ends every connection, even one a client stopped reading from.
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true });

  // The routes' schemas are zod's: a query that breaks one is the wire's 422, field by field.
  app.setValidatorCompiler(({ schema }) => (data) => {
    const parsed = (schema as ZodType).safeParse(data);
    return parsed.success ? { value: parsed.data } : { error: fieldErrorsOf(parsed.error) };
  });
  // Answers go out through the wire (routes/answer.ts), which checks them against these same schemas where asked.
  app.setSerializerCompiler(() => (data) => wire.json(data, 'application/json').body);
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(wire.record.mediaType, { parseAs: 'string' }, jsonParser);
  // Automation writes are JSON: anything else (text/plain included) is 415.
  app.removeContentTypeParser('text/plain');

  // The framework's own errors (bad JSON, 413, 415, 429, a schema) in the wire's shape.
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    if (error instanceof FieldErrors) return answer(reply, route, wire.unprocessable(error.errors));
    const status = error instanceof ColumnCannotBeNull ? 500 : error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const message = status === 500 ? 'Server Error' : status === 429 ? 'Too Many Attempts.' : error.message;
    return answer(reply, route, { status, type: 'application/json', body: { message } });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const own = path.startsWith(`${wire.prefix}/`) ? wire.unrouted?.(request, path.slice(wire.prefix.length + 1)) : null;
    return answer(reply, route, own ?? { status: 404, type: 'application/json', body: { message: 'Not Found' } });
  });

  const observe = options.onResponse;
  if (observe) {
    app.addHook('onResponse', async (request, reply) => {
      observe({ method: request.method, url: request.url, status: reply.statusCode, accept: request.headers.accept });
    });
  }

  const waits = options.catcher ? new WaitRoom(service) : null;
  if (waits) app.addHook('onClose', async () => waits.close());

  void app.register(
    async (api) => {
      api.addHook('onRequest', authenticate(service, wire, options));
      if (options.rateLimit) {
        // A route-level hook: it runs after authenticate, so only a known team (or the one mailbox's client) has a window.
        await api.register(rateLimit, {
          max: options.rateLimit,
          timeWindow: options.rateWindowMs ?? 60_000,
          keyGenerator: (request) => (wire.record.teams ? `team:${request.team.id}` : `ip:${request.ip}`),
          errorResponseBuilder: (_request, context) => ({ statusCode: context.statusCode, message: 'Too Many Attempts.' }),
        });
      }
      if (waits) await api.register(catcherSeedRoutes, { ...route, waits });
      await api.register(emailRoutes, route);
      await api.register(automationRoutes, route);
    },
    { prefix: wire.prefix },
  );
  void app.register(healthRoutes, { ...route, service });
  if (waits) void app.register(catcherApiRoutes, { service, waits, root: app, apiPath: (teamId) => wire.apiPath(teamId) });

  return app;
}
