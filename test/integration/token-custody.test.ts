import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountManager, scrubTokens } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { createHandlers, dispatch, type ConsentQuestion, type Handlers } from '../../src/main/handlers.ts';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { testCipher } from '../support/cipher.ts';
import { sendJson, stubServer, type StubServer } from '../support/stub-server.ts';

const TOKEN = 'tok-custody-4f1e9a0b7c';

/** Security finding 1, 5 and 12: the stored token never goes anywhere but where it was saved for. */
describe('token custody', () => {
  let dir: string;
  let service: RunningService;
  let attacker: StubServer;
  let accounts: AccountManager;
  let handlers: Handlers;
  let asked: ConsentQuestion[];
  let answer: boolean;
  const cipher = testCipher();

  const open = async (keyring = true) => {
    accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(keyring ? cipher : testCipher(false)));
    handlers = createHandlers({
      accounts,
      mail: {
        startDemo: async () => {
          throw new Error('no demo here');
        },
      },
      desktop: {
        openExternal: async () => undefined,
        saveFile: async () => null,
        confirm: async (question) => {
          asked.push(question);
          return answer;
        },
      },
      emit: () => undefined,
      app: { name: 'Inbox Desk', version: 'test', platform: 'linux' },
    });
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-custody-'));
    service = await startReferenceService({ teams: [{ id: 'acme', token: TOKEN }] });
    // Answers like a real service would, and echoes what it was sent.
    attacker = await stubServer((request, response) =>
      sendJson(response, 403, { message: `denied for ${request.headers.authorization ?? 'nobody'}` }),
    );
    asked = [];
    answer = false;
    await open();
  });
  afterEach(async () => {
    handlers.dispose();
    await service.close();
    await attacker.close();
    await rm(dir, { recursive: true, force: true });
  });

  const saveLegit = async () => {
    const saved = await dispatch(handlers, 'saveAccount', { name: 'Acme', baseUrl: service.baseUrl, teamId: 'acme', token: TOKEN });
    expect(saved.ok).toBe(true);
    return accounts.activeId!;
  };
  const attackerSawToken = () => attacker.requests.some((r) => JSON.stringify(r).includes(TOKEN));

  it('a connection test against a new address with the stored token sends nothing there', async () => {
    const id = await saveLegit();
    const envelope = await dispatch(handlers, 'testConnection', { baseUrl: attacker.url, teamId: 'acme', accountId: id });
    expect(envelope).toMatchObject({ ok: false, error: { kind: 'validation', details: { fields: { token: [expect.stringContaining('Enter the access token again')] } } } });
    expect(attacker.requests).toEqual([]);
    // The same address the token was saved for still tests with it.
    expect(await dispatch(handlers, 'testConnection', { baseUrl: service.baseUrl, teamId: 'acme', accountId: id })).toMatchObject({ ok: true });
  });

  it('moving a saved account to another origin needs the token again', async () => {
    const id = await saveLegit();
    const moved = await dispatch(handlers, 'saveAccount', { id, name: 'Acme', baseUrl: attacker.url, teamId: 'acme' });
    expect(moved).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(accounts.summaries()[0]!.baseUrl).toBe(service.baseUrl);
    await dispatch(handlers, 'listEmails', {});
    expect(attacker.requests).toEqual([]);
    // A path change on the same origin keeps the token; a new token for a new origin is fine.
    expect(await dispatch(handlers, 'saveAccount', { id, name: 'Renamed', baseUrl: `${service.baseUrl}/`, teamId: 'acme' })).toMatchObject({ ok: true });
    expect(await dispatch(handlers, 'saveAccount', { id, name: 'Acme', baseUrl: attacker.url, teamId: 'acme', token: 'a-new-token' })).toMatchObject({ ok: true });
    expect(attackerSawToken()).toBe(false);
  });

  /** Restarts on the file as edited by `edit`, then lets the app do what it does at start: list mail. */
  const restartWith = async (edit: (account: Record<string, unknown> & { token: Record<string, unknown> }) => void) => {
    const path = join(dir, 'settings.json');
    const file = JSON.parse(await readFile(path, 'utf8'));
    edit(file.accounts[0]);
    await writeFile(path, JSON.stringify(file));
    await writeFile(`${path}.bak`, JSON.stringify(file));
    handlers.dispose();
    await open();
    return dispatch(handlers, 'listEmails', {});
  };

  it('a hand-edited settings file cannot point the token at another origin (issue 18)', async () => {
    const id = await saveLegit();
    const listed = await restartWith((account) => {
      account.baseUrl = attacker.url;
    });
    expect(listed).toMatchObject({ ok: false, error: { kind: 'auth', message: expect.stringContaining('belongs to another server') } });
    expect(() => accounts.connection(id)).toThrow(/belongs to another server/);
    expect(attacker.requests).toEqual([]);
  });

  it('nor by editing the address and a plain-text origin beside the token together', async () => {
    await saveLegit();
    const listed = await restartWith((account) => {
      account.baseUrl = attacker.url;
      account.token.origin = new URL(attacker.url).origin;
    });
    expect(listed).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(attacker.requests).toEqual([]);
  });

  it('nor by swapping in another account’s sealed token: the origin travels inside the seal', async () => {
    await saveLegit();
    const other = await accounts.save({ name: 'Attacker', baseUrl: attacker.url, teamId: 'acme', token: 'their-own-token' });
    const file = JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'));
    const legitToken = file.accounts[0].token;
    const listed = await restartWith(() => undefined);
    expect(listed.ok).toBe(false); // the attacker's account is active and holds its own token: refused by the attacker
    const path = join(dir, 'settings.json');
    const edited = JSON.parse(await readFile(path, 'utf8'));
    edited.accounts[1].token = legitToken;
    await writeFile(path, JSON.stringify(edited));
    await writeFile(`${path}.bak`, JSON.stringify(edited));
    handlers.dispose();
    await open();
    attacker.requests.length = 0;
    expect(await dispatch(handlers, 'listEmails', {})).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(accounts.activeId).toBe(other);
    expect(attackerSawToken()).toBe(false);
    expect(attacker.requests).toEqual([]);
  });

  it('a token from an older file, with no origin sealed with it, is asked for again, never re-bound', async () => {
    const path = join(dir, 'settings.json');
    for (const origin of [undefined, new URL(attacker.url).origin]) {
      const legacy = {
        version: 1,
        accounts: [{ id: 'old', name: 'Old', baseUrl: attacker.url, teamId: 'acme', token: { scheme: 'encrypted', data: cipher.encrypt(TOKEN).toString('base64'), ...(origin ? { origin } : {}) } }],
        activeId: 'old',
        settings: { pageSize: 25, confirmDelete: true, theme: 'system' },
        window: null,
      };
      await writeFile(path, JSON.stringify(legacy));
      handlers.dispose();
      await open();
      expect(await dispatch(handlers, 'listEmails', {})).toMatchObject({ ok: false, error: { kind: 'auth', message: expect.stringContaining('older version') } });
      expect(accounts.boundOrigin('old')).toBeNull();
      expect(accounts.summaries()[0]).toMatchObject({ hasToken: true });
    }
    expect(attacker.requests).toEqual([]);
    // Typing it again binds it afresh, to the address it is typed for.
    expect(await dispatch(handlers, 'saveAccount', { id: 'old', name: 'Old', baseUrl: service.baseUrl, teamId: 'acme', token: TOKEN })).toMatchObject({ ok: true });
    expect(await dispatch(handlers, 'listEmails', {})).toMatchObject({ ok: true });
  });

  it('a *.localhost name is not taken for loopback without asking: it resolves wherever the resolver says (issue 18)', async () => {
    const input = { name: 'Sub', baseUrl: 'http://mail.localhost:8025', teamId: 'acme', token: TOKEN };
    expect(await dispatch(handlers, 'saveAccount', input)).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(asked.map((q) => q.kind)).toEqual(['clear-transport']);
    // The name localhost itself and 127.0.0.0/8 never leave the machine: no question.
    asked = [];
    expect(await dispatch(handlers, 'saveAccount', { ...input, baseUrl: 'http://localhost:8025' })).toMatchObject({ ok: true });
    expect(asked).toEqual([]);
  });

  it('plain http:// beyond loopback is refused unless the user says yes in main’s dialog', async () => {
    const input = { name: 'Clear', baseUrl: 'http://mail.example.test', teamId: 'acme', token: TOKEN };
    const refused = await dispatch(handlers, 'saveAccount', input);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'validation', details: { fields: { baseUrl: [expect.stringContaining('unencrypted')] } } } });
    expect(asked.map((q) => q.kind)).toEqual(['clear-transport']);
    expect(accounts.summaries()).toEqual([]);

    answer = true;
    expect(await dispatch(handlers, 'saveAccount', input)).toMatchObject({ ok: true });
    expect(accounts.summaries()[0]).toMatchObject({ transport: 'clear' });
    // Loopback http and https are never asked about.
    asked = [];
    await saveLegit();
    expect(accounts.summaries().find((a) => a.name === 'Acme')).toMatchObject({ transport: 'loopback' });
    expect(asked).toEqual([]);
  });

  it('a connection test over clear http:// asks first and sends nothing on Cancel', async () => {
    const clearUrl = attacker.url.replace('127.0.0.1', '127.0.0.1.nip.invalid');
    const envelope = await dispatch(handlers, 'testConnection', { baseUrl: clearUrl, teamId: 'acme', token: TOKEN });
    expect(envelope).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(asked.map((q) => q.kind)).toEqual(['clear-transport']);
  });

  it('storing a token in clear needs main’s dialog, not the renderer’s flag', async () => {
    handlers.dispose();
    await open(false);
    const input = { name: 'Acme', baseUrl: service.baseUrl, teamId: 'acme', token: TOKEN, allowPlaintextToken: true };
    expect(await dispatch(handlers, 'saveAccount', input)).toMatchObject({ ok: true });
    expect(asked.map((q) => q.kind)).toEqual(['plaintext-token']);
    expect(await readFile(join(dir, 'settings.json'), 'utf8')).not.toContain(TOKEN);
    expect(accounts.summaries()[0]).toMatchObject({ tokenStorage: 'session-only' });

    answer = true;
    expect(await dispatch(handlers, 'saveAccount', { ...input, id: accounts.activeId! })).toMatchObject({ ok: true });
    expect(accounts.summaries()[0]).toMatchObject({ tokenStorage: 'plaintext' });
  });

  it('a typed token never comes back in an error, even when the server echoes it', async () => {
    const envelope = await dispatch(handlers, 'testConnection', { baseUrl: attacker.url, teamId: 'acme', token: 'typed-secret-77' });
    expect(attacker.requests).toHaveLength(1);
    expect(envelope.ok).toBe(false);
    expect(JSON.stringify(envelope)).not.toContain('typed-secret-77');
    expect(JSON.stringify(envelope)).toContain('[redacted]');
  });

  it('a damaged settings file is set aside without the token in it', async () => {
    handlers.dispose();
    await open(false);
    answer = true;
    await dispatch(handlers, 'saveAccount', { name: 'Acme', baseUrl: service.baseUrl, teamId: 'acme', token: TOKEN, allowPlaintextToken: true });
    const path = join(dir, 'settings.json');
    expect(await readFile(path, 'utf8')).toContain(TOKEN);
    // Damaged two ways: cut short (not JSON) and then wrong in shape (JSON).
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.slice(0, text.indexOf(TOKEN) + TOKEN.length + 3));
    await rm(`${path}.bak`);
    handlers.dispose();
    await open(false);
    expect(accounts.recovered).toBe(true);
    await writeFile(path, JSON.stringify({ version: 1, accounts: [{ token: { scheme: 'plain', data: TOKEN } }] }));
    await AccountManager.load(path, new TokenVault(testCipher(false)));
    const setAside = (await readdir(dir)).filter((name) => name.includes('.corrupt-'));
    expect(setAside.length).toBe(2);
    for (const name of setAside) expect(await readFile(join(dir, name), 'utf8')).not.toContain(TOKEN);
    expect(scrubTokens('{"token": {"data": "abc')).not.toContain('abc');
  });
});
