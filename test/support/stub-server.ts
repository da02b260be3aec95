import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface StubServer {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

/** A loopback server whose every answer a test writes by hand. */
export async function stubServer(
  handle: (request: IncomingMessage & { body: string }, response: ServerResponse, index: number) => void,
  options: { tls?: boolean } = {},
): Promise<StubServer> {
  const requests: StubServer['requests'] = [];
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handle(Object.assign(request, { body }), response, requests.length - 1);
    });
  };
  const server: Server = options.tls
    ? createHttpsServer(
        { key: readFileSync(resolve('test/fixtures/tls/key.pem')), cert: readFileSync(resolve('test/fixtures/tls/cert.pem')) },
        listener,
      )
    : createServer(listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export const EMPTY_PAGE = {
  data: [],
  links: { first: null, last: null, prev: null, next: null },
  meta: { current_page: 1, from: null, last_page: 1, path: '', per_page: 25, to: null, total: 0 },
};
