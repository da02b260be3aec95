/**
 * A test suite's load on the catcher, with real clients (issue 40): hundreds
 * of idle connections never lock a new client out, idle ones are let go, and
 * a message to 1,000 recipients is taken for the first 100 (the rest 452, as
 * RFC 5321 §4.5.3.1.10 says), or for all where the cap is raised.
 */
import { execFile } from 'node:child_process';
import { createConnection, type Socket } from 'node:net';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';

let service: RunningService | null = null;
afterEach(async () => {
  await service?.close();
  service = null;
});

const idle = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('data', () => resolve(socket));
    socket.once('error', reject);
  });

describe('a test suite’s load', () => {
  it('200 idle connections held open: a new client still delivers in under a second, smtplib too', async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: 't' }], smtpPort: 0, smtp: { auth: 'any' } });
    const port = service.smtpPort!;
    // As a parallel suite opens them: all at once, each greeted, then left idle.
    const held = await Promise.all(Array.from({ length: 200 }, () => idle(port)));
    const started = Date.now();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'app@myapp.test', to: 'new@myapp.test', subject: 'Still in', text: 'hello' });
    transport.close();
    expect(Date.now() - started).toBeLessThan(1000);
    const python = await promisify(execFile)('python3', [
      '-c',
      `import smtplib\ns = smtplib.SMTP('127.0.0.1', ${port}, timeout=5)\ns.sendmail('app@myapp.test', ['py@myapp.test'], 'Subject: From smtplib\\r\\n\\r\\nhi\\r\\n')\ns.quit()\nprint('sent')`,
    ]).catch((error: Error) => ({ stdout: `failed: ${error.message}` }));
    expect(python.stdout.trim()).toBe('sent');
    expect(service.service.team('t').query({}).map((e) => e.subject).sort()).toEqual(['From smtplib', 'Still in']);
    for (const socket of held) socket.destroy();
  });

  it('lets idle connections go, so they free their places', async () => {
    service = await startReferenceService({ teams: [{ id: 't', token: 't' }], smtpPort: 0, smtp: { auth: 'any', idleMs: 300 } });
    const socket = await idle(service.smtpPort!);
    let said = '';
    socket.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(said).toMatch(/^421 /m);
  });

  it('1,000 recipients: the first 100 taken, the rest answered 452, the message stored for those taken; a raised cap takes them all', async () => {
    const to = Array.from({ length: 1000 }, (_, i) => `r${i}@myapp.test`);
    service = await startReferenceService({ teams: [{ id: 't', token: 't' }], smtpPort: 0, smtp: { auth: 'any' } });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.smtpPort!, secure: false, ignoreTLS: true });
    const info = await transport.sendMail({ envelope: { from: 'list@myapp.test', to }, raw: 'Subject: To everyone\r\n\r\nhi\r\n' });
    transport.close();
    expect(info.accepted).toHaveLength(100);
    expect(info.rejected).toHaveLength(900);
    expect(info.rejectedErrors?.[0]?.responseCode).toBe(452);
    expect(service.service.team('t').count()).toBe(100);
    await service.close();

    service = await startReferenceService({ teams: [{ id: 't', token: 't' }], smtpPort: 0, smtp: { auth: 'any', maxRecipients: 1000 } });
    const raised = nodemailer.createTransport({ host: '127.0.0.1', port: service.smtpPort!, secure: false, ignoreTLS: true });
    const all = await raised.sendMail({ envelope: { from: 'list@myapp.test', to }, raw: 'Subject: To everyone\r\n\r\nhi\r\n' });
    raised.close();
    expect(all.accepted).toHaveLength(1000);
    expect(service.service.team('t').count()).toBe(1000);
  }, 60_000);
});
