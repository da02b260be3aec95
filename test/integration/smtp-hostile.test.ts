/**
 * Hostile SMTP clients, as Mailpit's advisories taught: a command or AUTH line
 * past RFC 5321's 512 octets is refused before more of it is buffered, idle
 * clients are let go, connections and sizes are capped, and a fuzzing client
 * throwing random lines, binary and pipelined junk gets well-formed answers
 * while a real client still delivers after it.
 */
import { createConnection, type Socket } from 'node:net';
import fc from 'fast-check';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { selfSignedCertificate } from '../../src/server/self-signed.ts';

/** A raw client: everything the server said, and whether it hung up. */
function connect(port: number): Promise<{ socket: Socket; said: () => string; closed: Promise<void>; waitFor: (pattern: RegExp, ms?: number) => Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    const waitFor = (pattern: RegExp, ms = 5000) =>
      new Promise<string>((found, fail) => {
        const started = Date.now();
        const check = () => {
          if (pattern.test(text)) return found(text);
          if (Date.now() - started > ms) return fail(new Error(`waited for ${pattern}: ${JSON.stringify(text.slice(-300))}`));
          setTimeout(check, 10);
        };
        check();
      });
    socket.once('connect', () => resolve({ socket, said: () => text, closed, waitFor }));
    socket.once('error', reject);
  });
}

async function deliverNormally(port: number, marker: string): Promise<void> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, tls: { rejectUnauthorized: false }, auth: { user: 'u', pass: 'p' } });
  await transport.sendMail({ envelope: { from: 'a@myapp.test', to: ['b@example.test'] }, raw: `Subject: ${marker}\r\n\r\nbody\r\n` });
  transport.close();
}

const CAP = 20;

describe('hostile SMTP clients', () => {
  let service: RunningService;
  beforeAll(async () => {
    // The per-address cap made small here, to reach it (its real size is smtp.ts's SMTP_MAX_CLIENTS_PER_ADDRESS).
    service = await startReferenceService({ teams: [{ id: 't', token: 't' }], smtpPort: 0, smtp: { tls: selfSignedCertificate(), auth: 'any', idleMs: 400, maxBytes: 64 * 1024, maxClientsPerAddress: CAP } });
  });
  afterAll(() => service.close());
  const port = () => service.smtpPort!;

  it('refuses a command line past 512 octets and hangs up, having buffered no more of it', async () => {
    const client = await connect(port());
    await client.waitFor(/^220 /m);
    // 511 octets and CRLF is within the limit (an unknown command, answered, connection kept).
    client.socket.write(`NOOP ${'x'.repeat(505)}\r\n`);
    await client.waitFor(/^250 /m);
    // Ten megabytes without a line end: refused long before they are all sent.
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    while (!client.socket.destroyed && written < 10 * 1024 * 1024) {
      const more = client.socket.write(chunk);
      written += chunk.length;
      if (!more) await new Promise((resolve) => setTimeout(resolve, 5));
      if (/^5\d\d /m.test(client.said().split('\n').slice(1).join('\n'))) break;
    }
    await client.closed;
    expect(client.said()).toMatch(/^(421|5\d\d) .*too long/im);
    expect(written).toBeLessThan(10 * 1024 * 1024);
  });

  it('draws the line at 512 octets exactly: 513 with the CRLF is refused', async () => {
    const client = await connect(port());
    await client.waitFor(/^220 /m);
    client.socket.write(`NOOP ${'x'.repeat(506)}\r\n`);
    await client.closed;
    expect(client.said()).toMatch(/^(421|5\d\d) .*too long/im);
  });

  it('refuses an AUTH continuation past 512 octets the same way', async () => {
    const client = await connect(port());
    await client.waitFor(/^220 /m);
    client.socket.write('EHLO fuzz\r\nAUTH LOGIN\r\n');
    await client.waitFor(/^334 /m);
    client.socket.write(`${'QUFB'.repeat(200)}\r\n`);
    await client.closed;
    expect(client.said()).toMatch(/^(421|5\d\d) .*too long/im);
  });

  it('lets an idle client go with 421', async () => {
    const client = await connect(port());
    await client.waitFor(/^220 /m);
    await client.closed;
    expect(client.said()).toMatch(/^421 /m);
  });

  it('holds at most its cap of connections from one address; the next one is told so, with why', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => connect(port())));
    await Promise.all(held.map((client) => client.waitFor(/^220 /m)));
    const extra = await connect(port());
    await extra.closed;
    expect(extra.said()).toMatch(/^421 Too many connections from 127\.0\.0\.1 at once \(20\)/m);
    for (const client of held) client.socket.destroy();
    await Promise.all(held.map((client) => client.closed));
    // The server counts them down as it sees them go: a new client is welcome again.
    await expect
      .poll(async () => {
        const probe = await connect(port());
        const greeting = await probe.waitFor(/^\d{3} /m);
        probe.socket.destroy();
        return greeting.slice(0, 3);
      })
      .toBe('220');
  });

  it('refuses a message past its size with 552, declared or not', async () => {
    const client = await connect(port());
    await client.waitFor(/^220 /m);
    client.socket.write('EHLO fuzz\r\nMAIL FROM:<a@b.test> SIZE=99999999\r\n');
    await client.waitFor(/^552 /m);
    client.socket.write('MAIL FROM:<a@b.test>\r\nRCPT TO:<c@d.test>\r\nDATA\r\n');
    await client.waitFor(/^354 /m);
    for (let i = 0; i < 100; i++) client.socket.write(`${'y'.repeat(1000)}\r\n`);
    client.socket.write('.\r\n');
    await client.waitFor(/^552 /m);
    client.socket.end('QUIT\r\n');
  });

  it('a fuzzing client gets well-formed answers only, and a real client still delivers after each of 60 attacks', async () => {
    const line = fc.oneof(
      fc.constantFrom('EHLO x', 'HELO', 'MAIL FROM:<>', 'MAIL FROM:<a@b.test> BODY=8BITMIME SMTPUTF8', 'RCPT TO:<c@d.test>', 'DATA', 'RSET', 'NOOP', 'VRFY root', 'EXPN all', 'STARTTLS', 'AUTH PLAIN', 'AUTH LOGIN', 'AUTH XOAUTH2 eA==', 'QUIT', 'BDAT 10', 'ETRN x', '.'),
      fc.string({ unit: 'binary', maxLength: 600 }),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    const attack = fc.record({
      lines: fc.array(line, { minLength: 1, maxLength: 12 }),
      ending: fc.constantFrom('\r\n', '\n', '\r', ''),
      pipelined: fc.boolean(),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(attack, async ({ lines, ending, pipelined }) => {
        const client = await connect(port());
        await client.waitFor(/^220 /m);
        if (pipelined) client.socket.write(lines.map((l) => `${l}${ending}`).join(''));
        else for (const l of lines) client.socket.write(`${l}${ending}`);
        client.socket.end();
        await Promise.race([client.closed, new Promise((resolve) => setTimeout(resolve, 1500))]);
        client.socket.destroy();
        // Every line the server said is an SMTP reply: a code, then a space or a dash.
        for (const reply of client.said().split('\r\n').filter(Boolean)) expect(reply).toMatch(/^[2-5]\d\d[ -]/);
        await deliverNormally(port(), `after-attack-${n++}`);
      }),
      { numRuns: 60, seed: 31 },
    );
    expect(service.service.team('t').page({ search: 'after-attack-59' }).emails).toHaveLength(1);
  }, 120_000);
});
