/**
 * Release: a caught email sent on to a real inbox through the user's relay.
 * The relay here is a real SMTP server from npm (smtp-server) that keeps the
 * envelope, the login and the exact bytes it received; the caller is the
 * `mailpit-api` client's own releaseMessage, against `npm run catch` as a
 * user starts it (STARTTLS and AUTH, the certificate trusted as a real
 * relay's is) and against the service in process for the refusals.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MailpitClient } from 'mailpit-api';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { releaseMessage } from '../../src/server/relay.ts';
import { selfSignedCertificate } from '../../src/server/self-signed.ts';
import { startCatch, type RunningCatch } from '../support/catch-command.ts';
import { relayServer } from '../support/relay-server.ts';

const RAW = [
  'From: "My App" <no-reply@myapp.test>',
  'To: someone@myapp.test',
  'Subject: Release me',
  'Message-ID: <release-1@myapp.test>',
  'Date: Fri, 27 Nov 2026 10:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Hello from the app.',
  '.a line that starts with a dot',
  '',
].join('\r\n');

async function sendCaught(port: number) {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  await transport.sendMail({ envelope: { from: 'no-reply@myapp.test', to: ['someone@myapp.test'] }, raw: RAW });
  transport.close();
}

describe('Release through npm run catch, with the mailpit-api client', () => {
  let relay: Awaited<ReturnType<typeof relayServer>>;
  let caught: RunningCatch;
  let mailpit: MailpitClient;
  let certDir: string;

  beforeAll(async () => {
    const cert = selfSignedCertificate({ hosts: ['127.0.0.1'] });
    certDir = await mkdtemp(join(tmpdir(), 'relay-cert-'));
    await writeFile(join(certDir, 'relay.pem'), cert.cert);
    relay = await relayServer({ cert });
    caught = await startCatch({
      args: ['--relay-host', '127.0.0.1', '--relay-port', String(relay.port), '--relay-security', 'starttls', '--relay-user', 'relay-user', '--relay-allow', 'me@real.test,@team.test'],
      // The password from the environment (never a flag: ps would show it); the relay's certificate trusted as a real one is.
      env: { INBOX_DESK_RELAY_PASSWORD: 'relay-secret', NODE_EXTRA_CA_CERTS: join(certDir, 'relay.pem') },
    });
    mailpit = new MailpitClient(caught.api, { auth: { username: 'any', password: caught.token } });
  }, 60_000);
  afterAll(async () => {
    await caught?.stop();
    await relay?.close();
    await rm(certDir, { recursive: true, force: true });
  });

  it('says where it releases to when it starts', () => {
    expect(caught.output).toMatch(new RegExp(`Release: +through 127\\.0\\.0\\.1:${relay.port}, only to me@real\\.test, @team\\.test`));
  });

  it('sends the caught bytes, with one Received line before them, over STARTTLS with the login', async () => {
    await sendCaught(caught.smtpPort);
    const source = await mailpit.getMessageSource('latest');
    expect(await mailpit.releaseMessage('latest', { To: ['me@real.test', 'anyone@team.test'] })).toBe('ok');
    expect(relay.received).toHaveLength(1);
    const got = relay.received[0]!;
    expect(got).toMatchObject({ from: 'no-reply@myapp.test', to: ['me@real.test', 'anyone@team.test'], user: 'relay-user', secure: true });
    const text = got.bytes.toString('latin1');
    const firstLine = text.slice(0, text.indexOf('\r\n') + 2);
    expect(firstLine).toMatch(/^Received: by Inbox Desk \(release to 127\.0\.0\.1\); \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r\n$/);
    // Everything after it is what was caught, byte for byte (the dot line unstuffed again by the relay).
    expect(got.bytes.subarray(Buffer.byteLength(firstLine, 'latin1')).toString('latin1')).toBe(source);
    expect(source).toBe(RAW);
  });

  it('sends to no one off the allowlist, and says who', async () => {
    const before = relay.received.length;
    const answer = await fetch(`${caught.api}/api/v1/message/latest/release`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${caught.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ To: ['me@real.test', 'stranger@elsewhere.test', 'sub@x.team.test'] }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toBe('Not on the allowlist: stranger@elsewhere.test, sub@x.team.test. Only me@real.test, @team.test may receive released mail.');
    await expect(mailpit.releaseMessage('latest', { To: ['stranger@elsewhere.test'] })).rejects.toThrow();
    expect(relay.received).toHaveLength(before);
  });

  it('reads nothing and sends nothing without the token', async () => {
    const before = relay.received.length;
    const answer = await fetch(`${caught.api}/api/v1/message/latest/release`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ To: ['me@real.test'] }) });
    expect(answer.status).toBe(401);
    expect(relay.received).toHaveLength(before);
  });
});

describe('Release, when the relay says no', () => {
  const TOKEN = 'release-test-token-0123456789';
  let service: RunningService;
  const post = (to: string[]) =>
    fetch(`${service.baseUrl}/api/v1/message/latest/release`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ To: to }) });
  const config = (port: number, more: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port, security: 'none' as const, user: '', password: '', allowlist: ['me@real.test'], envelopeFrom: '', ...more });

  beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 'this-computer', token: TOKEN }], catcher: true, rateLimit: 0, smtpPort: 0, smtp: { host: '127.0.0.1', auth: 'any' } });
    await sendCaught(service.smtpPort!);
  });
  afterAll(async () => {
    await service?.close();
  });

  it('is off until a relay is set, and says how to set one', async () => {
    service.service.relay.set(null);
    const answer = await post(['me@real.test']);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/^Release is off: no relay is set/);
    expect(((await (await fetch(`${service.baseUrl}/api/v1/webui`, { headers: { Authorization: `Bearer ${TOKEN}` } })).json()) as { MessageRelay: { Enabled: boolean } }).MessageRelay.Enabled).toBe(false);
  });

  it('says the relay refused it, in the relay’s own words, and leaves the email as it was', async () => {
    const relay = await relayServer({ refuseRcpt: true });
    try {
      service.service.relay.set(config(relay.port));
      const answer = await post(['me@real.test']);
      expect(answer.status).toBe(502);
      expect(await answer.text()).toBe(`127.0.0.1:${relay.port} refused it: 550 5.7.1 Relaying denied for this sender`);
      expect(relay.received).toHaveLength(0);
      const raw = await (await fetch(`${service.baseUrl}/api/v1/message/latest/raw`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
      expect(raw).toBe(RAW);
    } finally {
      await relay.close();
    }
  });

  it('uses the envelope sender the relay demands, and says the relay’s answer', async () => {
    const relay = await relayServer();
    try {
      service.service.relay.set(config(relay.port, { envelopeFrom: 'me@real.test', user: 'relay-user', password: 'relay-secret' }));
      const answer = await post(['me@real.test']);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('ok');
      expect(answer.headers.get('x-relay-answer')).toMatch(new RegExp(`^Sent to me@real\\.test through 127\\.0\\.0\\.1:${relay.port}: 250 OK queued as relay-1`));
      expect(relay.received[0]).toMatchObject({ from: 'me@real.test', to: ['me@real.test'], user: 'relay-user' });
    } finally {
      await relay.close();
    }
  });

  it('says a wrong login in one sentence', async () => {
    const relay = await relayServer();
    try {
      service.service.relay.set(config(relay.port, { user: 'relay-user', password: 'wrong' }));
      const answer = await post(['me@real.test']);
      expect(answer.status).toBe(502);
      expect(await answer.text()).toMatch(new RegExp(`^127\\.0\\.0\\.1:${relay.port} refused it: 535 `));
      expect(relay.received).toHaveLength(0);
    } finally {
      await relay.close();
    }
  });

  it('says a relay that never answers, once its timeout fires, and sends nothing', async () => {
    const relay = await relayServer({ silent: true });
    try {
      const answer = await releaseMessage(Buffer.from(RAW), ['me@real.test'], 'no-reply@myapp.test', config(relay.port), { timeoutMs: 400 });
      expect(answer).toEqual({ ok: false, status: 502, message: `127.0.0.1:${relay.port} did not answer within 0.4 s: nothing was sent.` });
      expect(relay.received).toHaveLength(0);
    } finally {
      await relay.close();
    }
  });

  it('says a relay that cannot be reached', async () => {
    const relay = await relayServer();
    const port = relay.port;
    await relay.close();
    service.service.relay.set(config(port));
    const answer = await post(['me@real.test']);
    expect(answer.status).toBe(502);
    expect(await answer.text()).toMatch(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port}: `));
  });
});
