/**
 * The catcher's SMTP as real clients use it: nodemailer (what Node apps send
 * with), Python's smtplib (Django, Flask), and curl, each over plain SMTP,
 * STARTTLS and AUTH, and nodemailer over implicit TLS too. The message each
 * client sent is compared byte for byte with what the service stored.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { selfSignedCertificate } from '../../src/server/self-signed.ts';

const run = promisify(execFile);

/** A message with 8-bit UTF-8, a long line and a dot at a line's start (dot-stuffing), CRLF throughout. */
function message(marker: string): Buffer {
  return Buffer.from(
    [
      'From: Sign-up <signup@myapp.test>',
      'To: Jürgen <new.user@example.test>',
      `Subject: Your code, ${marker}`,
      'Date: Thu, 26 Nov 2026 10:00:00 +0000',
      `Message-ID: <${marker}@myapp.test>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      `Grüße! Your code is 739204 (${marker}).`,
      '.a line that starts with a dot',
      'x'.repeat(900),
      '',
    ].join('\r\n'),
    'utf8',
  );
}

describe('real SMTP clients against the catcher', () => {
  let service: RunningService;
  let locked: RunningService;
  let dir: string;
  const tls = selfSignedCertificate();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-smtp-'));
    service = await startReferenceService({ teams: [{ id: 't', token: 't' }], smtpPort: 0, smtp: { tls, tlsPort: 0, auth: 'any' } });
    locked = await startReferenceService({ teams: [{ id: 't', token: 't' }], smtpPort: 0, smtp: { tls, auth: { user: 'app', password: 's3cret' }, requireAuth: true } });
  });
  afterAll(async () => {
    await service.close();
    await locked.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The raw bytes the service stored for the email whose subject carries `marker`. */
  const stored = (on: RunningService, marker: string) => {
    const team = on.service.team('t');
    const email = team.page({ search: marker }).emails[0];
    return email ? team.content(email.id)!.raw : null;
  };

  it('nodemailer over STARTTLS with AUTH PLAIN and LOGIN, and over implicit TLS: byte for byte', async () => {
    for (const [marker, options] of [
      ['nm-starttls-plain', { port: service.smtpPort!, secure: false, requireTLS: true, authMethod: 'PLAIN' }],
      ['nm-starttls-login', { port: service.smtpPort!, secure: false, requireTLS: true, authMethod: 'LOGIN' }],
      ['nm-implicit-tls', { port: service.smtpTlsPort!, secure: true, authMethod: 'PLAIN' }],
      ['nm-plain-no-auth', { port: service.smtpPort!, secure: false, ignoreTLS: true }],
    ] as const) {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        ...options,
        ...('authMethod' in options ? { auth: { user: 'anyone', pass: 'anything' } } : {}),
        tls: { rejectUnauthorized: false },
      });
      const raw = message(marker);
      const info = await transport.sendMail({ envelope: { from: 'signup@myapp.test', to: ['new.user@example.test'] }, raw });
      expect(info.accepted, marker).toEqual(['new.user@example.test']);
      expect(stored(service, marker)?.equals(raw), marker).toBe(true);
      transport.close();
    }
  });

  it('Python’s smtplib with starttls() and login(): byte for byte', async () => {
    const raw = message('py-smtplib');
    const file = join(dir, 'py.eml');
    await writeFile(file, raw);
    const script = [
      'import smtplib, ssl, sys',
      'context = ssl.create_default_context(); context.check_hostname = False; context.verify_mode = ssl.CERT_NONE',
      `with smtplib.SMTP('127.0.0.1', ${service.smtpPort}) as smtp:`,
      '    smtp.ehlo(); smtp.starttls(context=context); smtp.ehlo()',
      "    assert smtp.has_extn('auth') and smtp.has_extn('smtputf8') and smtp.has_extn('8bitmime') and smtp.has_extn('size'), smtp.esmtp_features",
      "    smtp.login('django', 'app-password')",
      `    smtp.sendmail('signup@myapp.test', ['new.user@example.test'], open(${JSON.stringify(file)}, 'rb').read())`,
    ].join('\n');
    await run('python3', ['-c', script]);
    expect(stored(service, 'py-smtplib')?.equals(raw)).toBe(true);
  });

  it('curl with --ssl-reqd and --user, and plain: byte for byte', async () => {
    for (const [marker, extra] of [
      ['curl-starttls', ['--ssl-reqd', '--insecure', '--user', 'curl:pass']],
      ['curl-plain', []],
    ] as const) {
      const raw = message(marker);
      const file = join(dir, `${marker}.eml`);
      await writeFile(file, raw);
      await run('curl', ['--silent', '--show-error', '--url', `smtp://127.0.0.1:${service.smtpPort}`, ...extra, '--mail-from', 'signup@myapp.test', '--mail-rcpt', 'new.user@example.test', '--upload-file', file]);
      expect(stored(service, marker)?.equals(raw), marker).toBe(true);
    }
  });

  it('a configured pair: the wrong one is 535, none is 530, the right one delivers', async () => {
    const send = (auth?: { user: string; pass: string }) =>
      nodemailer
        .createTransport({ host: '127.0.0.1', port: locked.smtpPort!, secure: false, requireTLS: true, ...(auth ? { auth } : {}), tls: { rejectUnauthorized: false } })
        .sendMail({ envelope: { from: 'a@myapp.test', to: ['b@example.test'] }, raw: message(`locked-${auth?.pass ?? 'none'}`) });
    await expect(send({ user: 'app', pass: 'wrong' })).rejects.toMatchObject({ responseCode: 535 });
    await expect(send()).rejects.toMatchObject({ responseCode: 530 });
    await expect(send({ user: 'app', pass: 's3cret' })).resolves.toMatchObject({ accepted: ['b@example.test'] });
    expect(stored(locked, 'locked-s3cret')).not.toBeNull();
    expect(stored(locked, 'locked-wrong')).toBeNull();
  });

  it('EHLO says what frameworks look for: PIPELINING, 8BITMIME, SMTPUTF8, SIZE, STARTTLS and AUTH PLAIN LOGIN', async () => {
    const { stdout } = await run('python3', ['-c', `import smtplib\ns = smtplib.SMTP('127.0.0.1', ${service.smtpPort})\nprint(s.ehlo()[1].decode())\ns.quit()`]);
    for (const extension of ['PIPELINING', '8BITMIME', 'SMTPUTF8', 'SIZE 26214400', 'STARTTLS', 'AUTH PLAIN LOGIN']) expect(stdout).toContain(extension);
  });
});
