/**
 * "This computer" as main runs it (src/main/catcher.ts): the reference service
 * in its worker, its mail in a folder that survives restarts, its port taken
 * said in a sentence, its settings applied by starting it again, and its
 * arrivals told to main as they land.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client.ts';
import { Catcher } from '../../src/main/catcher.ts';
import { DEFAULT_CATCHER, type CatcherSettings } from '../../src/shared/domain/catcher.ts';
import { insightsOf } from '../../src/shared/domain/mail-insights.ts';

const WORKER = resolve('src/main/local-service-worker.ts');

async function send(port: number, subject: string, auth?: { user: string; pass: string }): Promise<void> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false }, ...(auth ? { auth } : {}) });
  await transport.sendMail({ from: 'app@myapp.test', to: 'qa@inbox-desk.test', subject, text: 'hello' });
  transport.close();
}

describe('This computer, the catcher in main', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-catcher-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('catches mail over STARTTLS, tells main of each arrival, and keeps it across a restart', async () => {
    const settings: CatcherSettings = { ...DEFAULT_CATCHER, port: 0, apiPort: 0 };
    const catcher = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'one') }, settings, false);
    const heard: string[][] = [];
    catcher.onArrival((ids) => heard.push(ids));
    await catcher.apply(settings, null, false);
    expect(catcher.state.status).toBe('listening');
    const port = catcher.state.smtp!.port;
    await send(port, 'Welcome aboard', { user: 'any', pass: 'thing' });
    await expect.poll(() => heard.length).toBe(1);
    const subjects = async () => (await new ServiceClient(await catcher.connection()).listEmails({}, { fresh: true })).data.map((e) => e.subject);
    expect(await subjects()).toEqual(['Welcome aboard']);
    await catcher.stop();
    // A new run over the same folder: the mail is still there, the certificate too (same fingerprint of the key file).
    const again = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'one') }, settings, false);
    await again.apply(settings, null, false);
    try {
      expect((await new ServiceClient(await again.connection()).listEmails({})).data.map((e) => e.subject)).toEqual(['Welcome aboard']);
    } finally {
      await again.stop();
    }
  });

  it('stopped while it starts, at 12 moments: it closes its store itself, leaves no log behind, and the next start finds the mail', async () => {
    // It was cut off (terminate) while starting: a thread in the middle of opening its SQLite store.
    const settings: CatcherSettings = { ...DEFAULT_CATCHER, port: 0, apiPort: 0 };
    const data = join(dir, 'stopped-early');
    const logsLeft = () => readdirSync(data, { recursive: true }).filter((name) => String(name).endsWith('-wal'));
    const first = new Catcher({ workerPath: WORKER, dataDir: data }, settings, false);
    await first.apply(settings, null, false);
    await send(first.state.smtp!.port, 'Kept through early stops');
    await first.stop();
    for (let round = 0; round < 12; round++) {
      const catcher = new Catcher({ workerPath: WORKER, dataDir: data }, settings, false);
      const starting = catcher.apply(settings, null, false).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, round * 40));
      await catcher.stop();
      await starting;
      expect(logsLeft()).toEqual([]);
    }
    const last = new Catcher({ workerPath: WORKER, dataDir: data }, settings, false);
    await last.apply(settings, null, false);
    try {
      expect((await new ServiceClient(await last.connection()).listEmails({})).data.map((e) => e.subject)).toEqual(['Kept through early stops']);
    } finally {
      await last.stop();
    }
  });

  it('serves the API for tests on its own port with a token kept beside the mail, copied only by main', async () => {
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    const settings: CatcherSettings = { ...DEFAULT_CATCHER, port: 0, apiPort: 0 };
    const catcher = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'api') }, settings, false);
    try {
      await catcher.apply(settings, null, false);
      const api = catcher.state.api as { url: string };
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const token = catcher.apiToken()!;
      // The state the renderer is sent holds no token.
      expect(JSON.stringify(catcher.state)).not.toContain(token);
      expect((await readFile(join(dir, 'api', 'mail', 'api-token'), 'utf8')).trim()).toBe(token);
      await send(catcher.state.smtp!.port, 'Your code is 551234');
      const latest = await fetch(`${api.url}/api/v1/message/latest`, { headers: { Authorization: `Basic ${Buffer.from(`anyone:${token}`).toString('base64')}` } });
      expect(((await latest.json()) as { Subject: string }).Subject).toBe('Your code is 551234');
      expect((await fetch(`${api.url}/api/v1/messages`)).status).toBe(401);
      // The same token after a restart: a suite's config keeps working.
      await catcher.stop();
      await catcher.apply({ ...settings, keep: 400 }, null, false);
      expect(catcher.apiToken()).toBe(token);
      // Its API port taken (Mailpit running?): said in a sentence, and the catcher still catches.
      await catcher.apply({ ...settings, apiPort: taken }, null, false);
      expect(catcher.state.status).toBe('listening');
      expect(catcher.state.api).toEqual({ error: `Port ${taken} is in use by another program (Mailpit?): the API for tests is off until you choose another port.` });
      expect(catcher.apiToken()).toBeNull();
      await send(catcher.state.smtp!.port, 'Still caught');
      const subjects = (await new ServiceClient(await catcher.connection()).listEmails({}, { fresh: true })).data.map((e) => e.subject);
      expect(subjects).toContain('Still caught');
      // Off: no API, no token.
      await catcher.apply({ ...settings, apiPort: null }, null, false);
      expect(catcher.state.api).toBeNull();
      expect(catcher.apiToken()).toBeNull();
    } finally {
      await catcher.stop();
      squatter.close();
    }
  });

  it('tries again by itself while its port is taken, and catches once the other program lets it go', async () => {
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    const settings: CatcherSettings = { ...DEFAULT_CATCHER, port: taken, apiPort: 0 };
    const delays: number[] = [];
    const catcher = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'freed'), retryDelayMs: (attempt) => (delays.push(attempt), 100 * attempt) }, settings, false);
    try {
      await catcher.apply(settings, null, false);
      expect(catcher.state.status).toBe('failed');
      // It backs off while the port stays taken…
      await expect.poll(() => delays.length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
      expect(delays.slice(0, 3)).toEqual([1, 2, 3]);
      // …and once it is free, it listens there by itself, and the client reaches it.
      await new Promise((resolve) => squatter.close(resolve));
      await expect.poll(() => catcher.state.status, { timeout: 5000 }).toBe('listening');
      expect(catcher.state.smtp!.port).toBe(taken);
      expect(catcher.state.retryAt).toBeNull();
      await send(taken, 'After the port was freed');
      const subjects = (await new ServiceClient(await catcher.connection()).listEmails({}, { fresh: true })).data.map((e) => e.subject);
      expect(subjects).toEqual(['After the port was freed']);
    } finally {
      await catcher.stop();
    }
  });

  it('says in one sentence when its port is taken, and starts on another once told', async () => {
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    const settings: CatcherSettings = { ...DEFAULT_CATCHER, port: taken, apiPort: 0 };
    const catcher = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'two') }, settings, false);
    try {
      await catcher.apply(settings, null, false);
      expect(catcher.state.status).toBe('failed');
      expect(catcher.state.retryAt).toBeGreaterThan(Date.now());
      expect(catcher.state.error).toBe(`Port ${taken} on 127.0.0.1 is in use by another program (another catcher such as Mailpit or MailHog?): choose another port for This computer in Settings.`);
      await expect(catcher.connection()).rejects.toThrow(/in use by another program/);
      await catcher.apply({ ...settings, port: 0 }, null, false);
      expect(catcher.state.status).toBe('listening');
    } finally {
      await catcher.stop();
      squatter.close();
    }
  });

  it('applies new settings by starting again: only the configured login is taken, and the newest N are kept', async () => {
    const base: CatcherSettings = { ...DEFAULT_CATCHER, port: 0, apiPort: 0 };
    const catcher = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'three') }, base, false);
    try {
      await catcher.apply({ ...base, auth: { user: 'app' }, requireAuth: true, keep: 2 }, 's3cret', true);
      const port = catcher.state.smtp!.port;
      await expect(send(port, 'no login')).rejects.toMatchObject({ responseCode: 530 });
      await expect(send(port, 'wrong login', { user: 'app', pass: 'nope' })).rejects.toMatchObject({ responseCode: 535 });
      for (const n of [1, 2, 3]) await send(port, `kept? ${n}`, { user: 'app', pass: 's3cret' });
      const client = new ServiceClient(await catcher.connection());
      expect((await client.listEmails({}, { fresh: true })).data.map((e) => e.subject)).toEqual(['kept? 3', 'kept? 2']);
      // Switched off: nothing listens, and the client is told why.
      await catcher.apply({ ...base, enabled: false }, null, false);
      expect(catcher.state).toMatchObject({ status: 'off', smtp: null });
      await expect(catcher.connection()).rejects.toThrow(/switched off/);
    } finally {
      await catcher.stop();
    }
  });
});

describe('the README’s minute with the catcher', () => {
  it.skipIf(spawnSync('curl', ['--version']).status !== 0)('its curl lines, as written, put a mail in This computer whose code the finder reads', async () => {
    const readme = await readFile('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Catch your own app'), readme.indexOf('## Keys'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!.replace(/^ {3}/gm, '');
    expect(block).toContain('smtp://127.0.0.1:1025');
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-readme-'));
    const settings: CatcherSettings = { ...DEFAULT_CATCHER, port: 0, apiPort: 0 };
    const catcher = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'catcher') }, settings, false);
    await catcher.apply(settings, null, false);
    try {
      // The default port as the README says, moved to this test's free one.
      const script = block.replaceAll('127.0.0.1:1025', `127.0.0.1:${catcher.state.smtp!.port}`);
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: dir, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const client = new ServiceClient(await catcher.connection());
      const [email] = (await client.listEmails({}, { fresh: true })).data;
      expect(email).toMatchObject({ subject: 'Your code', inbox: { email: 'you@inbox-desk.test' } });
      expect(insightsOf(email!.subject, await client.readerBody(email!.id, 'text')).code?.code).toBe('739204');
    } finally {
      await catcher.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
