/**
 * The catcher's additions to the API document's routes (under
 * /api/teams/{team}): a wait held until the email arrives, and each email's
 * code and main link. A seed client never asks for them, so it sees the
 * service it knows.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteOptions } from '../routes/answer.ts';
import { answer } from '../routes/answer.ts';
import { insightsFor } from './insights.ts';
import { waitAnswer } from './mailpit.ts';
import type { WaitRoom } from './waits.ts';

export async function catcherSeedRoutes(app: FastifyInstance, options: RouteOptions & { waits: WaitRoom }): Promise<void> {
  const { wire } = options;
  const filters = (query: Record<string, string>) => {
    const { inbox, sender, subject, search } = query;
    return { ...(inbox ? { inbox } : {}), ...(sender ? { sender } : {}), ...(subject ? { subject } : {}), ...(search ? { search } : {}) };
  };

  app.get<{ Querystring: Record<string, string> }>('/emails/wait', async (request, reply) =>
    waitAnswer(
      request,
      reply,
      options.waits,
      (team, after) => team.firstAfter(after, filters(request.query)),
      (team, email) => ({ data: wire.emailResource(email), ...insightsFor(team, email), cursor: String(team.cursorOf(email.id) ?? team.cursor()) }),
    ),
  );

  app.get<{ Params: { id: string } }>('/emails/:id/insights', async (request, reply) => {
    const email = request.team.getEmail(request.params.id);
    if (!email) return answer(reply, options, wire.notFound(request, { model: 'Email', id: request.params.id }));
    return { data: insightsFor(request.team, email) };
  });
}
