import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { FlavorName } from '../shared/flavors/index.ts';
import { buildApp, type AccessLogEntry } from './app.ts';
import { ReferenceService, type Retention, type TeamConfig } from './service.ts';
import type { ParsedMessage } from './ingest.ts';
import { startSmtp, type RunningSmtp, type SmtpOptions } from './smtp.ts';

export { signPayload } from './webhooks.ts';

export interface StartOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback only unless told otherwise. */
  host?: string;
  teams?: TeamConfig[];
  seedDir?: string;
  dataDir?: string;
  /** Starts the SMTP listener on this port (0 picks one). */
  smtpPort?: number;
  /** The rest of SMTP: interface, certificate (STARTTLS and the TLS port), AUTH (smtp.ts). */
  smtp?: Omit<SmtpOptions, 'port'>;
  /** What the service keeps (the newest N, N days): pruned as mail arrives, at start and hourly. */
  retention?: Retention;
  rateLimit?: number;
  /** The rate window, a minute unless a test shortens it. */
  rateWindowMs?: number;
  webhookTimeoutMs?: number;
  /** Let webhooks reach loopback, private and link-local addresses (tests, a private network). */
  allowPrivateWebhooks?: boolean;
  /** SpamAssassin's spamd (host:port), for Mailpit's sa-check; without it that route says it is off. */
  spamd?: string;
  /** `mailcare` speaks MailCare's own API (flavors.ts); the API document's by default. */
  flavor?: FlavorName;
  /** MailCare flavor: require this HTTP Basic login. */
  basic?: { user: string; password: string };
  /** MailCare flavor: false turns automations off (403), like MAILCARE_AUTOMATIONS=false. */
  automations?: boolean;
  /** MailCare flavor: rules may forward by mail (action_email), like MAILCARE_FORWARD=true; nothing is really sent. */
  forward?: boolean;
  /** Sees every answer (an access log for tests). */
  onResponse?: (entry: AccessLogEntry) => void;
  /** Check every JSON answer against its route's response schema (the test suites turn it on with INBOX_DESK_CHECK_RESPONSES=1). */
  checkResponses?: boolean;
  /** Parses incoming mail elsewhere (the CLI's parse thread, parse-pool.ts). */
  parse?: (raw: Buffer) => Promise<ParsedMessage>;
  /** Serve the catcher's API for tests and agents too: Mailpit's routes, the wait, each email's code, /mcp (catcher-api/). */
  catcher?: boolean;
  /**
   * The same API on a second, fixed address for tests and agents (This computer's 8025), while
   * `port` stays the app's own. A second listener that cannot start is reported, not fatal: the
   * catcher still catches.
   */
  publicApi?: { host: string; port: number };
}

export type { AccessLogEntry };

export interface RunningService {
  /** `http://127.0.0.1:PORT`, the base the API's paths sit under (`/api/teams/{team}`, or `/api` for MailCare). */
  baseUrl: string;
  teams: TeamConfig[];
  smtpPort: number | null;
  /** The implicit-TLS SMTP port, when one was asked for. */
  smtpTlsPort: number | null;
  /** The address SMTP listens on: loopback, whatever `host` says. */
  smtpHost: string | null;
  /** Where `publicApi` listens, or why it does not. */
  publicApi: { url: string } | { error: NodeJS.ErrnoException } | null;
  service: ReferenceService;
  /** Puts a raw message in as if it had arrived (automations run). */
  inject(raw: Buffer | string, options?: { teamId?: string; recipients?: string[] }): Promise<string[]>;
  close(): Promise<void>;
}

/** The app's routes on one more address: one service, one set of hooks, two listeners. */
async function listenAlso(app: FastifyInstance, at: { host: string; port: number }): Promise<{ server: Server; url: string } | { error: NodeJS.ErrnoException }> {
  const server = createServer((request, response) => app.routing(request, response));
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve({ error }));
    server.listen(at.port, at.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : at.port;
      const host = at.host.includes(':') ? `[${at.host}]` : at.host;
      resolve({ server, url: `http://${host}:${port}` });
    });
  });
}

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

export async function startReferenceService(options: StartOptions = {}): Promise<RunningService> {
  const teams = options.teams ?? [{ id: 'demo', token: randomToken() }];
  const service = new ReferenceService({
    teams,
    dataDir: options.dataDir,
    webhookTimeoutMs: options.webhookTimeoutMs,
    allowPrivateWebhooks: options.allowPrivateWebhooks,
    ...(options.spamd ? { spamd: options.spamd } : {}),
    flavor: options.flavor,
    parse: options.parse,
    retention: options.retention,
  });
  for (const team of teams) {
    const loaded = await service.load(team.id);
    if (!loaded && options.seedDir && team.id === service.defaultTeamId) await service.seedFrom(options.seedDir);
  }
  const app = buildApp(service, {
    rateLimit: options.rateLimit,
    rateWindowMs: options.rateWindowMs,
    flavor: options.flavor,
    basic: options.basic,
    automations: options.automations,
    forward: options.forward,
    onResponse: options.onResponse,
    checkResponses: options.checkResponses ?? process.env.INBOX_DESK_CHECK_RESPONSES === '1',
    catcher: options.catcher === true,
  });
  const host = options.host ?? '127.0.0.1';
  let smtp: RunningSmtp | null = null;
  try {
    await app.listen({ port: options.port ?? 0, host });
    smtp = options.smtpPort === undefined ? null : await startSmtp(service, { port: options.smtpPort, ...options.smtp });
  } catch (error) {
    // A failed start leaves nothing listening and nothing open: HTTP goes too, and the stores
    // close, their threads ended (This computer's thread ends next, and tries again later).
    await app.close();
    service.close();
    await service.closed();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const publicApi = options.publicApi ? await listenAlso(app, options.publicApi) : null;
  service.prune();
  const pruneHourly = options.retention?.days === undefined ? null : setInterval(() => service.prune(), 3_600_000);
  pruneHourly?.unref();
  return {
    baseUrl: `http://${host}:${port}`,
    teams,
    smtpPort: smtp?.port ?? null,
    smtpTlsPort: smtp?.tlsPort ?? null,
    smtpHost: smtp?.host ?? null,
    publicApi: publicApi && 'server' in publicApi ? { url: publicApi.url } : publicApi,
    service,
    async inject(raw, injectOptions = {}) {
      const stored = await service.ingest(Buffer.isBuffer(raw) ? raw : Buffer.from(raw), injectOptions);
      return stored.map((e) => e.id);
    },
    async close() {
      if (pruneHourly) clearInterval(pruneHourly);
      await smtp?.close();
      if (publicApi && 'server' in publicApi) {
        publicApi.server.closeAllConnections();
        await new Promise((resolve) => publicApi.server.close(resolve));
      }
      await app.close();
      await service.settled();
      service.close();
      await service.closed();
    },
  };
}
