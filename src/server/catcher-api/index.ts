/**
 * The catcher's API for tests and agents, beside the API document's routes:
 * Mailpit's /api/v1 (mailpit.ts), the views, /mcp for coding agents
 * (../mcp/), and, under the team's own prefix, the wait and each email's code
 * (seed-routes.ts). All of it needs the team's token (auth.ts).
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { MailSource, type Exchange } from '../mcp/mail-source.ts';
import { mailMcpServer } from '../mcp/tools.ts';
import type { ReferenceService } from '../service.ts';
import { catcherAuth, tokenOf } from './auth.ts';
import { mailpitRoutes } from './mailpit.ts';
import type { WaitRoom } from './waits.ts';

export { catcherSeedRoutes } from './seed-routes.ts';
export { WaitRoom } from './waits.ts';

/** The same service's routes, asked in process: the MCP tools read mail the way any client does. */
function inProcess(root: FastifyInstance, authorization: string): Exchange {
  return async ({ method, path, accept }) => {
    const answer = await root.inject({ method, url: path, headers: { authorization, ...(accept ? { accept } : {}) } });
    return { status: answer.statusCode, type: String(answer.headers['content-type'] ?? ''), body: answer.body };
  };
}

export async function catcherApiRoutes(app: FastifyInstance, options: { service: ReferenceService; waits: WaitRoom; root: FastifyInstance; apiPath: (teamId: string) => string }): Promise<void> {
  app.addHook('onRequest', catcherAuth(options.service));
  await app.register(mailpitRoutes, { waits: options.waits, service: options.service });

  // Streamable HTTP, stateless: each POST is one exchange with a server of its own.
  app.post('/mcp', async (request, reply) => {
    const source = new MailSource(inProcess(options.root, `Bearer ${tokenOf(request.headers.authorization)}`), options.apiPath(request.team.id));
    const server = mailMcpServer(source);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      handler: async (_request, reply) => reply.code(405).header('Allow', 'POST').type('application/json; charset=utf-8').send({ jsonrpc: '2.0', error: { code: -32000, message: 'This MCP endpoint is stateless: POST only.' }, id: null }),
    });
  }
}
