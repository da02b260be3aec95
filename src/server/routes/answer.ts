/** How every route answers: through its server's wire, checked against the route's response schema where asked. */
import type { FastifyReply } from 'fastify';
import type { ZodType } from 'zod';
import type { Answer, ServerWire } from '../flavors/index.ts';

export interface RouteOptions {
  wire: ServerWire;
  /** Check each JSON answer against the route's response schema (the tests ask; a failure is a 500). */
  checkResponses: boolean;
  /** MailCare's MAILCARE_AUTOMATIONS=false: every automation route answers 403. */
  automations: boolean;
  /** MailCare's MAILCARE_FORWARD: rules may forward by mail. */
  forward: boolean;
}

/** The response schema a route declared for a status: the exact code, else its class (4xx). */
function responseSchema(reply: FastifyReply, status: number): ZodType | undefined {
  const response = (reply.request.routeOptions.schema as { response?: Record<string, ZodType> } | undefined)?.response;
  return response?.[String(status)] ?? response?.[`${String(status)[0]}xx`];
}

export function answer(reply: FastifyReply, route: Pick<RouteOptions, 'wire' | 'checkResponses'>, { status, type, body, headers }: Answer): FastifyReply {
  reply.code(status);
  if (headers) reply.headers(headers);
  if (typeof body === 'string' || Buffer.isBuffer(body)) return reply.type(type).send(body);
  if (route.checkResponses) responseSchema(reply, status)?.parse(body);
  const json = route.wire.json(body, type);
  // As bytes, so that the Content-Type goes out exactly as the wire wrote it (Fastify adds a charset to JSON strings).
  return reply.type(json.type).send(Buffer.from(json.body));
}
