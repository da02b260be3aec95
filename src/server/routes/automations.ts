/** The automations resource: list, create, update (as the server's wire writes), delete. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AutomationBody, AutomationParams, AutomationResource, ErrorBody } from '../schemas.ts';
import { answer, type RouteOptions } from './answer.ts';

export async function automationRoutes(app: FastifyInstance, route: RouteOptions): Promise<void> {
  const { wire } = route;
  // MailCare with automations turned off answers 403 on all of these.
  if (!route.automations) app.addHook('onRequest', async (_request, reply) => answer(reply, route, { status: 403, type: 'application/json', body: { message: '' } }));


  app.get('/automations', { schema: { response: { 200: z.object({ data: z.array(AutomationResource) }), '4xx': ErrorBody } } }, async (request, reply) =>
    answer(reply, route, { status: 200, type: 'application/json', body: { data: [...request.team.automations.values()].map(wire.automationResource) } }),
  );

  app.post('/automations', { schema: { body: AutomationBody, response: { 201: z.object({ data: AutomationResource }), '4xx': ErrorBody } } }, async (request, reply) => {
    const checked = wire.checkAutomation(request.body, { forward: route.forward });
    if (!checked.ok) return answer(reply, route, wire.unprocessable(checked.errors));
    return answer(reply, route, wire.written(201, request.team.createAutomation(checked.value)));
  });

  app.put<{ Params: z.infer<typeof AutomationParams> }>(
    '/automations/:id',
    { schema: { params: AutomationParams, body: AutomationBody, response: { 200: z.object({ data: AutomationResource }), '4xx': ErrorBody } } },
    async (request, reply) => {
      const automation = request.team.automations.get(request.params.id);
      if (!automation) return answer(reply, route, wire.notFound(request, { model: 'Automation', id: request.params.id }));
      const checked = wire.checkAutomation(request.body, { forward: route.forward });
      if (!checked.ok) return answer(reply, route, wire.unprocessable(checked.errors));
      // A failed request changed nothing; a good one writes what the wire writes.
      Object.assign(automation, wire.updateFields(request.body as Record<string, unknown>, checked.value));
      automation.updated_at = new Date();
      request.team.saveAutomation(automation);
      return answer(reply, route, wire.written(200, automation));
    },
  );

  app.delete<{ Params: z.infer<typeof AutomationParams> }>('/automations/:id', { schema: { params: AutomationParams } }, async (request, reply) =>
    answer(reply, route, request.team.deleteAutomation(request.params.id) ? wire.empty() : wire.notFound(request, { model: 'Automation', id: request.params.id })),
  );
}
