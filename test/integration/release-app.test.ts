/**
 * Release from the app: main's handlers as the app builds them, This computer
 * as main runs it (its worker), and a real SMTP relay from npm. The relay's
 * password is sealed (never in the settings file in clear), the allowlist is
 * checked before anything else, the first send through a relay waits for
 * main's own dialog, and what arrives at the relay is the caught bytes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { Catcher } from '../../src/main/catcher.ts';
import type { ConsentQuestion } from '../../src/main/connect.ts';
import type { HandlerTable } from '../../src/main/handlers.ts';
import { CATCHER_ID } from '../../src/shared/domain/catcher.ts';
import { testCipher } from '../support/cipher.ts';
import { mainHandlers } from '../support/main-handlers.ts';
import { relayServer } from '../support/relay-server.ts';

const WORKER = resolve('src/main/local-service-worker.ts');

describe('Release from the app, through main', () => {
  let dir: string;
  let accounts: AccountManager;
  let catcher: Catcher;
  let handlers: HandlerTable;
  let dispose = () => undefined as void;
  let relay: Awaited<ReturnType<typeof relayServer>>;
  const asked: ConsentQuestion[] = [];
  let answer = false;
  let emailId = '';
  let caughtRaw = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'release-app-'));
    relay = await relayServer();
    accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    const settings = await accounts.updateCatcher({ enabled: true, port: 0, apiPort: null });
    catcher = new Catcher({ workerPath: WORKER, dataDir: join(dir, 'catcher') }, settings, false);
    catcher.setRelay(accounts.relayConfig());
    await catcher.apply(settings, null, false);
    const made = mainHandlers(accounts, {
      mail: { catcher },
      desktop: {
        confirm: async (question) => {
          asked.push(question);
          return answer;
        },
      },
    });
    handlers = made.table;
    dispose = made.dispose;
    await handlers.switchAccount({ id: CATCHER_ID });
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.state.smtp!.port, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'no-reply@myapp.test', to: 'someone@myapp.test', subject: 'Your code', text: 'Your code is 424242.' });
    transport.close();
    const list = await handlers.listEmails({ inbox: undefined, sender: undefined, subject: undefined, since: undefined, until: undefined, search: undefined });
    emailId = list.data[0]!.id;
    caughtRaw = (await handlers.getEmailBody({ id: emailId, format: 'raw', whole: true })).content;
  }, 60_000);
  afterAll(async () => {
    dispose();
    await catcher?.stop();
    await relay?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the relay password sealed: never in the settings file, never in what the renderer is sent', async () => {
    const state = await handlers.updateRelay({ settings: { host: '127.0.0.1', port: relay.port, security: 'none', user: 'relay-user', allowlist: ['me@real.test', '@team.test'], envelopeFrom: '' }, password: 'relay-secret' });
    expect(state.catcher.relay).toEqual({
      settings: { host: '127.0.0.1', port: relay.port, security: 'none', user: 'relay-user', allowlist: ['me@real.test', '@team.test'], envelopeFrom: '' },
      hasPassword: true,
      consented: false,
    });
    expect(JSON.stringify(state)).not.toContain('relay-secret');
    const file = await readFile(join(dir, 'settings.json'), 'utf8');
    expect(file).not.toContain('relay-secret');
    expect(file).toContain('"relay"');
  });

  it('refuses recipients off the allowlist before asking anything or sending anything', async () => {
    await expect(handlers.releaseEmail({ id: emailId, to: ['me@real.test', 'stranger@elsewhere.test'] })).rejects.toThrow('Not on the allowlist: stranger@elsewhere.test.');
    expect(asked).toHaveLength(0);
    expect(relay.received).toHaveLength(0);
  });

  it('asks main’s dialog the first time, and sends nothing when the answer is no', async () => {
    answer = false;
    expect(await handlers.releaseEmail({ id: emailId, to: ['me@real.test'] })).toEqual({ ok: false, message: `Not sent: 127.0.0.1:${relay.port} was not allowed.` });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'relay', confirmLabel: 'Allow this server' });
    expect(asked[0]!.message).toContain(`127.0.0.1:${relay.port} and log in as relay-user`);
    expect(asked[0]!.message).toContain('only to me@real.test, @team.test');
    expect(relay.received).toHaveLength(0);
  });

  it('sends the caught bytes once allowed, says the relay’s answer, and does not ask again', async () => {
    answer = true;
    const sent = await handlers.releaseEmail({ id: emailId, to: ['me@real.test', 'qa@team.test'] });
    expect(sent.ok).toBe(true);
    expect(sent.message).toMatch(new RegExp(`^Sent to me@real\\.test, qa@team\\.test through 127\\.0\\.0\\.1:${relay.port}: 250 OK queued as relay-1`));
    expect(asked).toHaveLength(2);
    expect(relay.received).toHaveLength(1);
    const got = relay.received[0]!;
    expect(got).toMatchObject({ from: 'no-reply@myapp.test', to: ['me@real.test', 'qa@team.test'], user: 'relay-user' });
    const text = got.bytes.toString('utf8');
    expect(text).toMatch(/^Received: by Inbox Desk \(release to 127\.0\.0\.1\); [^\r\n]+\r\n/);
    expect(text.slice(text.indexOf('\r\n') + 2)).toBe(caughtRaw);

    expect((await handlers.releaseEmail({ id: emailId, to: ['me@real.test'] })).ok).toBe(true);
    expect(asked).toHaveLength(2);
    expect(relay.received).toHaveLength(2);
    expect((await handlers.getAccounts(undefined)).catcher.relay?.consented).toBe(true);
  });

  it('asks again for another server, and does not carry the password there', async () => {
    const other = await relayServer();
    try {
      const state = await handlers.updateRelay({ settings: { host: '127.0.0.1', port: other.port, security: 'none', user: 'relay-user', allowlist: ['me@real.test'], envelopeFrom: '' } });
      expect(state.catcher.relay).toMatchObject({ hasPassword: false, consented: false });
      answer = true;
      // No password was typed for this one: said before anything is asked or sent.
      await expect(handlers.releaseEmail({ id: emailId, to: ['me@real.test'] })).rejects.toThrow(`Type the password for relay-user at 127.0.0.1:${other.port}`);
      expect(asked).toHaveLength(2);
      await handlers.updateRelay({ settings: (await handlers.getAccounts(undefined)).catcher.relay!.settings, password: 'relay-secret' });
      expect((await handlers.releaseEmail({ id: emailId, to: ['me@real.test'] })).ok).toBe(true);
      expect(asked).toHaveLength(3);
      expect(other.received).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('says what is wrong with a half-filled relay, and keeps the one before', async () => {
    await expect(handlers.updateRelay({ settings: { host: 'smtp.example.test', port: 0, security: 'starttls', user: '', allowlist: [], envelopeFrom: '' } })).rejects.toThrow('The port is a number from 1 to 65535, not 0.');
    await expect(handlers.updateRelay({ settings: { host: 'smtp.example.test', port: 587, security: 'starttls', user: '', allowlist: ['not an address'], envelopeFrom: '' } })).rejects.toThrow('“not an address” is neither an address nor @domain.');
    expect((await handlers.getAccounts(undefined)).catcher.relay?.settings.host).toBe('127.0.0.1');
  });
});
