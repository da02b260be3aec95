/** Whether the service is up, and how much mail it holds: for whoever runs it (a catcher's status, a script that waits for it). */
import type { FastifyInstance } from 'fastify';
import type { ReferenceService } from '../service.ts';
import { Health } from '../schemas.ts';
import { answer, type RouteOptions } from './answer.ts';

export async function healthRoutes(app: FastifyInstance, options: RouteOptions & { service: ReferenceService }): Promise<void> {
  app.get('/health', { schema: { response: { 200: Health } } }, async (_request, reply) =>
    answer(reply, options, { status: 200, type: 'application/json', body: { status: 'ok', emails: options.service.totalEmails() } }),
  );
  // Mailpit's probes, as a CI service's health check or a Kubernetes pod asks them: 200 and no body once serving.
  for (const path of ['/livez', '/readyz']) app.get(path, async (_request, reply) => reply.code(200).send());
}
