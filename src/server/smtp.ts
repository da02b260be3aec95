import { SMTPServer } from 'smtp-server';
import type { ReferenceService } from './service.ts';

/** Largest message the listener takes, as SMTP SIZE advertises it. */
export const SMTP_MAX_BYTES = 25 * 1024 * 1024;

/**
 * An SMTP listener on loopback so any program can send test mail in. No auth
 * and no TLS: it never listens beyond 127.0.0.1. Mail goes to the first team.
 */
export async function startSmtp(
  service: ReferenceService,
  port: number,
  host = '127.0.0.1',
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: SMTP_MAX_BYTES,
    logger: false,
    banner: 'Inbox Desk reference service',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          callback(Object.assign(new Error('Message exceeds the size limit'), { responseCode: 552 }));
          return;
        }
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        service.ingest(Buffer.concat(chunks), { recipients }).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
