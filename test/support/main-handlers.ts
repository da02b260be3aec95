import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AccountManager } from '../../src/main/account/accounts.ts';
import { createHandlers, type BenchPort, type DesktopPort, type HandlerDeps, type Handlers, type KeptPort, type MailPort } from '../../src/main/handlers.ts';

/** What a test changes: any shared field, and any part of a port. */
export type HandlerOverrides = Partial<Omit<HandlerDeps, 'mail' | 'desktop' | 'kept' | 'bench'>> & {
  mail?: Partial<MailPort>;
  desktop?: Partial<DesktopPort>;
  kept?: KeptPort;
  bench?: BenchPort;
};

/** Main's handlers as the app builds them, with no demo and the desktop's prompts answered yes. */
export function mainHandlers(accounts: AccountManager, overrides: HandlerOverrides = {}): Handlers {
  const { mail, desktop, ...shared } = overrides;
  return createHandlers({
    accounts,
    emit: () => undefined,
    app: { name: 'Inbox Desk', version: 'test', platform: 'linux' },
    ...shared,
    mail: {
      startDemo: async () => {
        throw new Error('no demo');
      },
      ...mail,
    },
    desktop: { openExternal: async () => undefined, saveFile: async () => null, confirm: async () => true, ...desktop },
  });
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A webhook receiver on 127.0.0.1 that keeps every request's path, headers and exact body bytes; `url` is its /hook. */
export async function webhookReceiver(): Promise<{ origin: string; url: string; received: ReceivedRequest[]; close: () => Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return { origin, url: `${origin}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
