import { connect } from 'node:net';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { threadId } from 'node:worker_threads';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client.ts';
import { demoService } from '../../src/main/local-service.ts';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { collectUpTo, SMTP_MAX_BYTES, SMTP_MAX_RECIPIENTS } from '../../src/server/smtp.ts';
import { isPrivateAddress, resolveWebhookTarget } from '../../src/server/webhook-target.ts';
import { wildcardMatch } from '../../src/server/wildcard.ts';
import { rawMail } from '../support/mail.ts';
import { stubServer, type StubServer } from '../support/stub-server.ts';

const TOKEN = 'limits-token';
const H = { Authorization: `Bearer ${TOKEN}`, Accept: 'application/vnd.service.v1+json' };

let service: RunningService | null = null;
let receiver: StubServer | null = null;
afterEach(async () => {
  await service?.close();
  await receiver?.close();
  service = null;
  receiver = null;
});

const start = async (options: Parameters<typeof startReferenceService>[0] = {}) => {
  service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }, { id: 'u', token: 'other-team' }], ...options });
  return service;
};
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${service!.baseUrl}/api/teams/t/${path}`, { ...init, headers: { ...H, ...(init.headers ?? {}) } });

describe('finding 3: no pattern can stall the service', () => {
  it('matches `*` wildcards without backtracking', async () => {
    expect(wildcardMatch('Invoice *', 'invoice 2026-11')).toBe(true);
    expect(wildcardMatch('*report*', 'Weekly REPORT ready')).toBe(true);
    expect(wildcardMatch('a*b*c', 'axxbyyc')).toBe(true);
    expect(wildcardMatch('a*b*c', 'axxbyy')).toBe(false);
    expect(wildcardMatch('exact', 'exact!')).toBe(false);
    expect(wildcardMatch('*', '')).toBe(true);
    expect(wildcardMatch('.*', 'anything')).toBe(false); // a dot is a dot
    expect(wildcardMatch('line*two', 'line\ntwo')).toBe(true);

    await start();
    await service!.inject(rawMail({ subject: 'a'.repeat(60) }));
    const began = performance.now();
    const response = await api(`emails?subject=${encodeURIComponent('*a*a*a*a*a*a*a*a*a*a*a*a*!')}`);
    const took = performance.now() - began;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
    expect(took).toBeLessThan(500); // was 127 s
  });

  it('runs automation patterns in linear time; an email cannot freeze every team', async () => {
    await start();
    const created = await api('automations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Evil', subject: '(a+)+$' }),
    });
    expect(created.status).toBe(201);
    const began = performance.now();
    await service!.inject(rawMail({ subject: `${'a'.repeat(5000)}!` }));
    const other = await fetch(`${service!.baseUrl}/api/teams/u/emails`, { headers: { ...H, Authorization: 'Bearer other-team' } });
    expect(other.status).toBe(200);
    expect(performance.now() - began).toBeLessThan(1000); // was 60 s at 31 characters
  });

  it('refuses patterns the linear engine cannot run, and very long ones, with 422', async () => {
    await start();
    for (const subject of ['(a)\\1', '(?=x)y', 'x'.repeat(501)]) {
      const response = await api('automations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Bad', subject }),
      });
      expect(response.status, subject.slice(0, 20)).toBe(422);
      expect(Object.keys(((await response.json()) as { errors: object }).errors)).toEqual(['subject']);
    }
  });

  it('the demo service runs in its own thread, never on main’s event loop', async () => {
    const demo = demoService(resolve('resources'), resolve('src/main/local-service-worker.ts'));
    try {
      const connection = await demo.start();
      expect(demo.threadId()).not.toBeNull();
      expect(demo.threadId()).not.toBe(threadId);
      const client = new ServiceClient(connection, { maxRetries: 0 });
      const page = await client.listEmails({ subject: '*a*a*a*a*a*a*a*a*a*~~~' });
      expect(page.data).toEqual([]);
      expect((await client.listEmails({ limit: 5 }, { fresh: true })).data).toHaveLength(5);
      expect(await demo.start()).toEqual(connection);
    } finally {
      await demo.stop();
    }
    expect(demo.threadId()).toBeNull();
  });
});

describe('finding 4: SMTP limits', () => {
  it('stops collecting at the size limit instead of buffering the whole message', async () => {
    let produced = 0;
    const eightyMb = new Readable({
      read() {
        if (produced >= 80 * 1024 * 1024) return this.push(null);
        produced += 1024 * 1024;
        this.push(Buffer.alloc(1024 * 1024, 120));
      },
    });
    const result = await collectUpTo(eightyMb, SMTP_MAX_BYTES);
    expect(result.bytes).toBeNull();
    expect(result.received).toBe(80 * 1024 * 1024);
    expect(result.kept).toBe(0);

    const small = await collectUpTo(Readable.from([Buffer.from('ab'), Buffer.from('c')]), 10);
    expect(small.bytes?.toString()).toBe('abc');
  });

  it('refuses a message over 25 MB with 552 and stores nothing', async () => {
    await start({ smtpPort: 0 });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service!.smtpPort!, secure: false, ignoreTLS: true });
    const error = await transport
      .sendMail({ from: 'big@example.test', to: 'support@acme.test', subject: 'Big', text: 'x'.repeat(SMTP_MAX_BYTES + 1024) })
      .catch((e: { responseCode?: number }) => e);
    expect((error as { responseCode?: number }).responseCode).toBe(552);
    expect(service!.service.team('t').count()).toBe(0);
  });

  it(`takes at most ${SMTP_MAX_RECIPIENTS} recipients per message`, async () => {
    await start({ smtpPort: 0 });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service!.smtpPort!, secure: false, ignoreTLS: true });
    const to = Array.from({ length: 130 }, (_, i) => `r${i}@acme.test`);
    const info = await transport.sendMail({ from: 'list@example.test', to, subject: 'Many', text: 'hi' });
    // RFC 5321 §4.5.3.1.8: at least 100.
    expect(SMTP_MAX_RECIPIENTS).toBeGreaterThanOrEqual(100);
    expect(info.accepted).toHaveLength(SMTP_MAX_RECIPIENTS);
    expect(info.rejected).toHaveLength(130 - SMTP_MAX_RECIPIENTS);
    await expect.poll(() => service!.service.team('t').count()).toBe(SMTP_MAX_RECIPIENTS);
  });

  it('holds at most its cap of connections, and listens on loopback even when HTTP is told 0.0.0.0', async () => {
    const SMTP_MAX_CLIENTS = 20;
    await start({ smtpPort: 0, host: '0.0.0.0', smtp: { maxClients: SMTP_MAX_CLIENTS } });
    expect(service!.smtpHost).toBe('127.0.0.1');
    const greetings = await Promise.all(
      Array.from(
        { length: SMTP_MAX_CLIENTS + 3 },
        () =>
          new Promise<string>((done) => {
            const socket = connect(service!.smtpPort!, '127.0.0.1');
            socket.once('data', (data) => done(data.toString().slice(0, 3)));
            socket.once('error', () => done('err'));
            setTimeout(() => socket.destroy(), 1500);
          }),
      ),
    );
    expect(greetings.filter((g) => g === '220')).toHaveLength(SMTP_MAX_CLIENTS);
    expect(greetings.filter((g) => g === '421')).toHaveLength(3);
  });
});

describe('finding 10: webhooks never reach private addresses unless allowed', () => {
  it('knows loopback, private, link-local and their disguises', () => {
    for (const address of ['127.0.0.1', '127.8.8.8', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '224.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::6810:84e5', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  /**
   * IANA's IPv4 and IPv6 Special-Purpose Address Registries (as of 2026), copied
   * by hand, plus multicast: the first and last address of each range must be
   * refused as a webhook target, and reached only with --allow-private-webhooks.
   */
  const SPECIAL_PURPOSE: [string, string, string][] = [
    ['0.0.0.0/8 this network', '0.0.0.0', '0.255.255.255'],
    ['10.0.0.0/8 private', '10.0.0.0', '10.255.255.255'],
    ['100.64.0.0/10 shared address space', '100.64.0.0', '100.127.255.255'],
    ['127.0.0.0/8 loopback', '127.0.0.0', '127.255.255.255'],
    ['169.254.0.0/16 link local', '169.254.0.0', '169.254.255.255'],
    ['172.16.0.0/12 private', '172.16.0.0', '172.31.255.255'],
    ['192.0.0.0/24 IETF protocol assignments', '192.0.0.0', '192.0.0.255'],
    ['192.0.2.0/24 TEST-NET-1', '192.0.2.0', '192.0.2.255'],
    ['192.88.99.0/24 6to4 relay anycast', '192.88.99.0', '192.88.99.255'],
    ['192.168.0.0/16 private', '192.168.0.0', '192.168.255.255'],
    ['198.18.0.0/15 benchmarking', '198.18.0.0', '198.19.255.255'],
    ['198.51.100.0/24 TEST-NET-2', '198.51.100.0', '198.51.100.255'],
    ['203.0.113.0/24 TEST-NET-3', '203.0.113.0', '203.0.113.255'],
    ['224.0.0.0/4 multicast', '224.0.0.0', '239.255.255.255'],
    ['240.0.0.0/4 reserved', '240.0.0.0', '255.255.255.254'],
    ['255.255.255.255/32 limited broadcast', '255.255.255.255', '255.255.255.255'],
    ['::1/128 loopback', '::1', '::1'],
    ['::/128 unspecified', '::', '::'],
    ['::ffff:0:0/96 IPv4-mapped (of a private address)', '::ffff:10.0.0.1', '::ffff:192.168.255.255'],
    ['64:ff9b::/96 NAT64 (of a private address)', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe'],
    ['64:ff9b:1::/48 local-use NAT64', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
    ['100::/64 discard only', '100::', '100::ffff:ffff:ffff:ffff'],
    ['2001::/32 Teredo', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:2::/48 benchmarking', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
    ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2001:10::/28 ORCHID', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['2002::/16 6to4', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['3fff::/20 documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['5f00::/16 segment routing', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fc00::/7 unique local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['fe80::/10 link local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['ff00::/8 multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ];

  it('refuses every special-purpose range, first and last address, unless private targets are allowed (issue 19)', async () => {
    const fake = (address: string) => async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    for (const [range, first, last] of SPECIAL_PURPOSE) {
      for (const address of [first, last]) {
        expect(isPrivateAddress(address), `${range}: ${address}`).toBe(true);
        await expect(resolveWebhookTarget('https://hooks.example.test/x', { allowPrivate: false, resolve: fake(address) }), `${range}: ${address}`).rejects.toThrow(/private/);
        expect(await resolveWebhookTarget('https://hooks.example.test/x', { allowPrivate: true, resolve: fake(address) })).toMatchObject({ address, private: true });
      }
    }
    // Just outside some of them: ordinary public addresses.
    for (const address of ['100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '192.0.3.0', '198.17.255.255', '198.20.0.0', '203.0.112.255', '223.255.255.255', '2001:db7:ffff::1', '2001:4860:4860::8888', '64:ff9b::808:808', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('checks every resolved address and pins the one it checked', async () => {
    const fake = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    await expect(resolveWebhookTarget('https://hooks.example.test/x', { allowPrivate: false, resolve: fake(['93.184.216.34', '10.0.0.5']) })).rejects.toThrow(/private/);
    await expect(resolveWebhookTarget('https://rebind.example.test/x', { allowPrivate: false, resolve: fake(['169.254.169.254']) })).rejects.toThrow(/private/);
    expect(await resolveWebhookTarget('https://hooks.example.test/x', { allowPrivate: false, resolve: fake(['93.184.216.34']) })).toMatchObject({ address: '93.184.216.34', family: 4 });
    await expect(resolveWebhookTarget('file:///etc/passwd', { allowPrivate: true })).rejects.toThrow();
  });

  it('posts nothing, not even the secret, to loopback in any spelling; says in_error', async () => {
    receiver = await stubServer((_request, response) => response.end('ok'));
    const port = new URL(receiver.url).port;
    await start();
    const targets = [`http://127.0.0.1:${port}/a`, `http://2130706433:${port}/b`, `http://[::ffff:127.0.0.1]:${port}/c`, `http://localhost:${port}/d`, `http://0x7f.1:${port}/e`];
    for (const [i, action_url] of targets.entries()) {
      const response = await api('automations', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `To ${i}`, subject: 'ping', action_url, action_secret_token: 'sekrit-value', payload_format: 'json_with_bodies' }),
      });
      expect(response.status).toBe(201);
    }
    await service!.inject(rawMail({ subject: 'ping' }));
    await service!.service.settled();
    expect(receiver.requests).toEqual([]);
    const listed = ((await (await api('automations')).json()) as { data: unknown }).data as { in_error: boolean; emails_received: number }[];
    expect(listed.map((a) => [a.emails_received, a.in_error])).toEqual(targets.map(() => [1, true]));
  });

  it('delivers to loopback when the service is told private targets are fine', async () => {
    receiver = await stubServer((_request, response) => response.end('ok'));
    await start({ allowPrivateWebhooks: true });
    await api('automations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Local', subject: 'ping', action_url: `${receiver.url}/hook` }),
    });
    await service!.inject(rawMail({ subject: 'ping' }));
    await service!.service.settled();
    expect(receiver.requests.map((r) => r.url)).toEqual(['/hook']);
  });
});
