import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { STAGE_NAMES, type ChaosStage } from '../shared/domain/chaos.ts';
import type { ReferenceService } from './service.ts';

/** Largest message the listener takes, as SMTP SIZE advertises it. */
export const SMTP_MAX_BYTES = 25 * 1024 * 1024;
/**
 * Each recipient becomes a stored email (and a round of webhooks): capped per message, at the
 * 100 RFC 5321 §4.5.3.1.8 asks a server to take at least (a setting raises it); the rest are
 * answered 452 (§4.5.3.1.10), and the message goes to those taken.
 */
export const SMTP_MAX_RECIPIENTS = 100;
/**
 * Connections at once from one client address, and in all: far above what a parallel test
 * suite opens, so that idle ones (let go after SMTP_IDLE_MS) never lock a new client out.
 */
export const SMTP_MAX_CLIENTS_PER_ADDRESS = 800;
export const SMTP_MAX_CLIENTS = 1000;
/** Loopback unless the caller asks for another interface (and says why in its own words). */
export const SMTP_HOST = '127.0.0.1';
/** A command or AUTH line, CRLF included (RFC 5321 §4.5.3.1.4): refused past this before more of it is buffered. */
export const SMTP_MAX_LINE = 512;
/** A client that says nothing this long is let go. */
export const SMTP_IDLE_MS = 60_000;

/** What SMTP AUTH takes: nothing offered, any user and password (as Mailpit's "accept any"), or one pair. */
export type SmtpAuth = 'off' | 'any' | { user: string; password: string };

export interface SmtpOptions {
  /** The plain port, with STARTTLS when a certificate is given (0 picks one). */
  port: number;
  host?: string;
  /** A certificate for STARTTLS and the TLS port: without one, no TLS is offered. */
  tls?: { key: string; cert: string };
  /** A second port that speaks TLS from the first byte (SMTPS, 465 in production). */
  tlsPort?: number;
  auth?: SmtpAuth;
  /** Refuse mail from a client that has not authenticated (530). Off by default: frameworks that never authenticate still deliver. */
  requireAuth?: boolean;
  maxBytes?: number;
  idleMs?: number;
  /** Recipients taken per message (SMTP_MAX_RECIPIENTS by default); the rest get 452. */
  maxRecipients?: number;
  /** Connections at once, per client address and in all (tests make them small). */
  maxClientsPerAddress?: number;
  maxClients?: number;
}

export interface RunningSmtp {
  port: number;
  /** The implicit-TLS port, when one was asked for. */
  tlsPort: number | null;
  host: string;
  close: () => Promise<void>;
}

/**
 * Reads a message stream, keeping at most `maxBytes`: past that the rest is
 * drained and dropped, never buffered. Answers the bytes, or null when too large.
 */
export function collectUpTo(stream: Readable, maxBytes: number): Promise<{ bytes: Buffer | null; received: number; kept: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let kept = 0;
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        if (chunks.length > 0) chunks.length = 0;
        kept = 0;
        return;
      }
      chunks.push(chunk);
      kept += chunk.length;
    });
    stream.on('error', reject);
    stream.on('end', () => resolve({ bytes: received > maxBytes ? null : Buffer.concat(chunks), received, kept }));
  });
}

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

/** The connections one listener holds, by client address, and their sockets (chaos drops one mid-DATA). */
interface Connections {
  perAddress: Map<string, number>;
  sockets: Map<string, Socket>;
}

const socketKey = (address: string | undefined, port: number | undefined) => `${address ?? ''}|${port ?? 0}`;

/**
 * Chaos at a stage: waits as long as a slow server is set to, then answers the code set, or nothing.
 * Null at once when chaos is off, as it nearly always is: the answer then waits for no promise.
 */
function chaosAt(service: ReferenceService, stage: ChaosStage): Promise<Error | null> | null {
  if (!service.chaos.on) return null;
  return service.chaos.delay().then(() => {
    const code = service.chaos.at(stage);
    return code === null ? null : smtpError(`Chaos: Inbox Desk answers ${code} at ${STAGE_NAMES[stage]}, as set in its settings`, code);
  });
}

/** Answers a command once chaos at its stage has had its say. */
function afterChaos(service: ReferenceService, stage: ChaosStage, callback: (error?: Error | null) => void): void {
  const pending = chaosAt(service, stage);
  if (pending === null) return callback();
  pending.then((refused) => callback(refused ?? undefined), callback);
}

/** One listener's options: the same handlers on the plain and the TLS port. */
function serverOptions(service: ReferenceService, options: SmtpOptions, secure: boolean, connections: Connections): SMTPServerOptions {
  const auth = options.auth ?? 'off';
  const maxBytes = options.maxBytes ?? SMTP_MAX_BYTES;
  const host = options.host ?? SMTP_HOST;
  const maxRecipients = options.maxRecipients ?? SMTP_MAX_RECIPIENTS;
  const perAddress = options.maxClientsPerAddress ?? SMTP_MAX_CLIENTS_PER_ADDRESS;
  const counted = new WeakSet<object>();
  return {
    secure,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    // Without a certificate there is nothing to upgrade to; with one, STARTTLS is offered on the plain port.
    hideSTARTTLS: !options.tls,
    disabledCommands: [...(auth === 'off' ? ['AUTH'] : []), ...(options.tls ? [] : ['STARTTLS'])],
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: !options.requireAuth,
    // On this computer a password crosses no network; on another interface AUTH waits for TLS.
    allowInsecureAuth: isLoopback(host),
    size: maxBytes,
    maxClients: options.maxClients ?? SMTP_MAX_CLIENTS,
    // smtp-server counts the line without its CRLF.
    maxCommandLength: SMTP_MAX_LINE - 2,
    socketTimeout: options.idleMs ?? SMTP_IDLE_MS,
    logger: false,
    banner: 'Inbox Desk catches this mail; it goes nowhere else',
    onConnect(session, callback) {
      // One client address never holds every place: another client is always let in.
      const address = session.remoteAddress ?? '';
      const held = connections.perAddress.get(address) ?? 0;
      if (held >= perAddress) return callback(smtpError(`Too many connections from ${address} at once (${perAddress}): close some, or let idle ones time out`, 421));
      connections.perAddress.set(address, held + 1);
      counted.add(session);
      afterChaos(service, 'connect', callback);
    },
    onClose(session) {
      connections.sockets.delete(socketKey(session.remoteAddress, session.remotePort));
      if (!counted.has(session)) return;
      counted.delete(session);
      const address = session.remoteAddress ?? '';
      const left = (connections.perAddress.get(address) ?? 1) - 1;
      if (left <= 0) connections.perAddress.delete(address);
      else connections.perAddress.set(address, left);
    },
    onAuth(credentials, _session, callback) {
      void (chaosAt(service, 'auth') ?? Promise.resolve(null)).then((refused) => {
        if (refused) return callback(refused);
        if (auth === 'any') return callback(null, { user: credentials.username ?? '' });
        if (auth !== 'off' && credentials.username === auth.user && credentials.password === auth.password) return callback(null, { user: auth.user });
        return callback(smtpError('Authentication failed: this user and password are not the ones Inbox Desk was given', 535));
      }, callback);
    },
    onMailFrom(_address, session, callback) {
      if (options.requireAuth && !session.user) return callback(smtpError('Authentication required: log in with the user and password Inbox Desk shows', 530));
      afterChaos(service, 'mailFrom', callback);
    },
    onRcptTo(_address, session, callback) {
      if (session.envelope.rcptTo.length >= maxRecipients) return callback(smtpError(`Too many recipients: at most ${maxRecipients} per message; send the rest in another`, 452));
      afterChaos(service, 'rcptTo', callback);
    },
    onData(stream, session, callback) {
      if (service.chaos.dropsData()) {
        // Chaos: the connection goes in the middle of the message, as a crashed server's would; nothing is stored.
        const socket = connections.sockets.get(socketKey(session.remoteAddress, session.remotePort));
        stream.once('data', () => socket?.destroy());
        stream.resume();
        stream.once('end', () => callback(smtpError('Chaos: the connection was dropped mid-DATA', 421)));
        return;
      }
      collectUpTo(stream, maxBytes).then(async ({ bytes }) => {
        if (bytes === null) return callback(smtpError(`Message too large: at most ${maxBytes} bytes`, 552));
        const refused = await chaosAt(service, 'dataEnd');
        if (refused) return callback(refused);
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        service.ingest(bytes, { recipients }).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      }, callback);
    },
  };
}

async function listen(server: SMTPServer, port: number, host: string, connections: Connections): Promise<number> {
  // Replies written in the same turn (to pipelined MAIL, RCPT and DATA) leave as one
  // segment, as RFC 2920 §3.2 asks: one write each cost a system call per reply.
  server.server.on('connection', (socket: Socket) => {
    connections.sockets.set(socketKey(socket.remoteAddress, socket.remotePort), socket);
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((...args: unknown[]) => {
      if (socket.writableCorked === 0) {
        socket.cork();
        process.nextTick(() => socket.uncork());
      }
      return write(...args);
    }) as Socket['write'];
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  return typeof address === 'object' && address ? address.port : port;
}

/**
 * The service's SMTP, as the frameworks that send mail expect it: EHLO with
 * PIPELINING, 8BITMIME, SMTPUTF8 and SIZE; STARTTLS and an implicit-TLS port
 * when given a certificate; AUTH PLAIN and LOGIN taking any credentials or
 * one pair; clear 5xx answers; lines, sizes, recipients, clients and idle
 * time all bounded. Mail goes to the first team, one email per recipient.
 */
export async function startSmtp(service: ReferenceService, options: SmtpOptions): Promise<RunningSmtp> {
  const host = options.host ?? SMTP_HOST;
  const connections: Connections = { perAddress: new Map(), sockets: new Map() };
  const plain = new SMTPServer(serverOptions(service, options, false, connections));
  const port = await listen(plain, options.port, host, connections);
  let secure: SMTPServer | null = null;
  let tlsPort: number | null = null;
  if (options.tlsPort !== undefined && options.tls) {
    secure = new SMTPServer(serverOptions(service, options, true, connections));
    try {
      tlsPort = await listen(secure, options.tlsPort, host, connections);
    } catch (error) {
      await new Promise<void>((resolve) => plain.close(() => resolve()));
      throw error;
    }
  }
  const closeOne = (server: SMTPServer) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    tlsPort,
    host,
    close: async () => {
      await Promise.all([closeOne(plain), ...(secure ? [closeOne(secure)] : [])]);
    },
  };
}
