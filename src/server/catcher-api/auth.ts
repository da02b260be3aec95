/**
 * Who may use the catcher's API for tests and agents (Mailpit's routes, the
 * MCP endpoint, the HTML view): the team's token, as `Authorization: Bearer`,
 * or as the password of HTTP Basic with any user (how Mailpit clients are
 * configured). No token, no mail: a request without one reads nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceService } from '../service.ts';

/** The token a request carries, from either scheme; '' when none. */
export function tokenOf(header: string | undefined): string {
  const value = header ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(value)?.[1]?.trim();
  if (bearer) return bearer;
  const basic = /^Basic\s+(.+)$/i.exec(value)?.[1];
  if (!basic) return '';
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? '' : decoded.slice(colon + 1);
}

/** A hook: settles `request.team`, or answers 401 with how to authenticate. */
export function catcherAuth(service: ReferenceService) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = tokenOf(request.headers.authorization);
    const teamId = token ? service.teamForToken(token) : null;
    if (teamId === null) {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Basic realm="Inbox Desk catcher", charset="UTF-8"')
        .type('application/json; charset=utf-8')
        .send({ message: 'This API needs the catcher’s token: Authorization: Bearer <token>, or HTTP Basic with any user and the token as password.' });
    }
    request.team = service.team(teamId);
  };
}
