import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import type { ReferenceService } from './service.ts';

/** Largest message the listener takes, as SMTP SIZE advertises it. */
export const SMTP_MAX_BYTES = 25 * 1024 * 1024;
/** Each recipient becomes a stored email (and a round of webhooks): capped per message. */
export const SMTP_MAX_RECIPIENTS = 50;
export const SMTP_MAX_CLIENTS = 20;
/** SMTP has no auth here: it only ever listens on loopback, whatever the HTTP host. */
export const SMTP_HOST = '127.0.0.1';

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

/**
 * An SMTP listener on loopback so any program can send test mail in. No auth
 * and no TLS. Mail goes to the first team.
 */
export async function startSmtp(service: ReferenceService, port: number): Promise<{ port: number; host: string; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: SMTP_MAX_BYTES,
    maxClients: SMTP_MAX_CLIENTS,
    logger: false,
    banner: 'Inbox Desk reference service',
    onRcptTo(_address, session, callback) {
      if (session.envelope.rcptTo.length >= SMTP_MAX_RECIPIENTS) {
        callback(smtpError(`Too many recipients: at most ${SMTP_MAX_RECIPIENTS} per message`, 452));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      collectUpTo(stream, SMTP_MAX_BYTES).then(({ bytes }) => {
        if (bytes === null) {
          callback(smtpError('Message exceeds the size limit', 552));
          return;
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        service.ingest(bytes, { recipients }).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      }, callback);
    },
  });
  // Replies written in the same turn (to pipelined MAIL, RCPT and DATA) leave as one
  // segment, as RFC 2920 §3.2 asks: one write each cost a system call per reply.
  server.server.on('connection', (socket: Socket) => {
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
    server.listen(port, SMTP_HOST, () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    host: typeof address === 'object' && address ? address.address : SMTP_HOST,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
