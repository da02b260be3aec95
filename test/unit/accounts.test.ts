import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { ServiceError } from '../../src/main/api/errors.ts';
import { testCipher } from '../support/cipher.ts';

const TOKEN = 'tok_live_5f2b9c0e8a7d4b1e';
const account = { name: 'Acme', baseUrl: 'https://mail.acme.test/', teamId: 'acme', token: TOKEN };

describe('accounts and the settings file', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-accounts-'));
    path = join(dir, 'settings.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps chaos across a restart only when pinned', async () => {
    const chaos = { triggers: { rcptTo: { code: 451, probability: 50, next: 0 } }, delayMs: 0, drop: null, pinned: false };
    const accounts = await AccountManager.load(path, new TokenVault(testCipher()));
    expect(accounts.pinnedChaos).toBeNull();
    await accounts.keepChaos(chaos);
    expect((await AccountManager.load(path, new TokenVault(testCipher()))).pinnedChaos).toBeNull();
    await accounts.keepChaos({ ...chaos, pinned: true });
    expect((await AccountManager.load(path, new TokenVault(testCipher()))).pinnedChaos).toEqual({ ...chaos, pinned: true });
    await accounts.keepChaos({ ...chaos, pinned: false });
    expect((await AccountManager.load(path, new TokenVault(testCipher()))).pinnedChaos).toBeNull();
  });

  it('keeps the token encrypted on disk, never in clear', async () => {
    const cipher = testCipher();
    const accounts = await AccountManager.load(path, new TokenVault(cipher));
    const id = await accounts.save(account);
    const onDisk = await readFile(path, 'utf8');
    expect(onDisk).not.toContain(TOKEN);
    expect(JSON.parse(onDisk).accounts[0].token.scheme).toBe('encrypted');
    expect(await readFile(`${path}.bak`, 'utf8')).not.toContain(TOKEN);
    expect(accounts.summaries()[0]).toEqual({
      id, name: 'Acme', baseUrl: 'https://mail.acme.test', teamId: 'acme', flavor: 'service-v1', hasToken: true, tokenStorage: 'encrypted', transport: 'encrypted', addressPattern: '',
    });
    const reloaded = await AccountManager.load(path, new TokenVault(cipher));
    expect(reloaded.connection(id)).toEqual({ baseUrl: 'https://mail.acme.test', teamId: 'acme', token: TOKEN, flavor: 'service-v1' });
    expect(reloaded.activeId).toBe(id);
  });

  it('without a keyring stores nothing in clear unless the user agrees', async () => {
    const accounts = await AccountManager.load(path, new TokenVault(testCipher(false)));
    expect(accounts.encryptionAvailable).toBe(false);
    const id = await accounts.save(account);
    expect(await readFile(path, 'utf8')).not.toContain(TOKEN);
    // Usable for this session only.
    expect(accounts.connection(id).token).toBe(TOKEN);
    expect(accounts.summaries()[0]).toMatchObject({ hasToken: true, tokenStorage: 'session-only' });
    const nextRun = await AccountManager.load(path, new TokenVault(testCipher(false)));
    expect(nextRun.summaries()[0]).toMatchObject({ hasToken: false, tokenStorage: null });
    expect(() => nextRun.connection(id)).toThrow(ServiceError);

    // The renderer's request alone is not consent: main's dialog answer is.
    await nextRun.save({ ...account, id, allowPlaintextToken: true });
    expect(await readFile(path, 'utf8')).not.toContain(TOKEN);
    await nextRun.save({ ...account, id }, { plaintext: true });
    const stored = JSON.parse(await readFile(path, 'utf8')).accounts[0].token;
    expect(stored.scheme).toBe('plain');
    // The token with the origin it is sealed to, in one value.
    expect(stored.data).toContain(TOKEN);
    expect(stored.data).toContain('"origin":"https://mail.acme.test"');
    expect(nextRun.summaries()[0]).toMatchObject({ hasToken: true, tokenStorage: 'plaintext' });
  });

  it('recovers from a settings file cut short, from the last good copy', async () => {
    const cipher = testCipher();
    const accounts = await AccountManager.load(path, new TokenVault(cipher));
    const id = await accounts.save(account);
    await accounts.updateSettings({ pageSize: 50 });
    const size = (await readFile(path)).length;
    await truncate(path, Math.floor(size / 2)); // a crash mid-write, as an unsafe writer would leave it

    const recovered = await AccountManager.load(path, new TokenVault(cipher));
    expect(recovered.recovered).toBe(true);
    expect(recovered.connection(id).token).toBe(TOKEN);
    expect(recovered.settings.pageSize).toBe(50);
    expect((await readdir(dir)).some((name) => name.startsWith('settings.json.corrupt-'))).toBe(true);
  });

  it('does not trust a damaged file when there is no backup: it starts clean', async () => {
    await writeFile(path, '{"version": 1, "accounts": [{"id": "x", "name": "A", "baseUrl": "https://a.test", "teamId"');
    const fresh = await AccountManager.load(path, new TokenVault(testCipher()));
    expect(fresh.recovered).toBe(true);
    expect(fresh.summaries()).toEqual([]);
    expect(fresh.activeId).toBeNull();
    expect(fresh.settings).toEqual({ pageSize: 25, confirmDelete: false, theme: 'system', density: 'compact', notifyNewMail: false, afterDelete: 'next', keymap: {}, copyCodeShortcut: 'Control+Alt+C', spamd: '' });
  });

  it('reads a settings file from before density and notifications, and a change to one setting keeps the rest', async () => {
    await writeFile(path, JSON.stringify({ version: 1, accounts: [], activeId: null, settings: { pageSize: 50, confirmDelete: false, theme: 'dark' }, window: null }));
    const old = await AccountManager.load(path, new TokenVault(testCipher()));
    expect(old.recovered).toBe(false);
    expect(old.settings).toEqual({ pageSize: 50, confirmDelete: false, theme: 'dark', density: 'compact', notifyNewMail: false, afterDelete: 'next', keymap: {}, copyCodeShortcut: 'Control+Alt+C', spamd: '' });
    await old.updateSettings({ density: 'comfortable' });
    await old.updateSettings({ notifyNewMail: true });
    expect(old.settings).toMatchObject({ pageSize: 50, theme: 'dark', density: 'comfortable', notifyNewMail: true });
  });

  it('does not trust valid JSON of the wrong shape', async () => {
    await writeFile(path, JSON.stringify({ version: 1, accounts: [{ id: 1 }], activeId: 5 }));
    const fresh = await AccountManager.load(path, new TokenVault(testCipher()));
    expect(fresh.summaries()).toEqual([]);
  });

  it('survives many saves at once: the file is always whole', async () => {
    const accounts = await AccountManager.load(path, new TokenVault(testCipher()));
    await Promise.all(Array.from({ length: 20 }, (_, i) => accounts.save({ ...account, name: `Acme ${i}` })));
    const parsed = JSON.parse(await readFile(path, 'utf8'));
    expect(parsed.accounts).toHaveLength(20);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('checks the server address and the token of a new account', async () => {
    const accounts = await AccountManager.load(path, new TokenVault(testCipher()));
    for (const baseUrl of ['ftp://files.test', 'not a url', 'https://user:pw@mail.test']) {
      const error = await accounts.save({ ...account, baseUrl }).catch((e: ServiceError) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).fields?.baseUrl).toBeDefined();
    }
    const noToken = await accounts.save({ ...account, token: undefined }).catch((e: ServiceError) => e);
    expect((noToken as ServiceError).fields?.token).toBeDefined();
    expect(accounts.summaries()).toEqual([]);
  });

  it('switches and removes accounts', async () => {
    const accounts = await AccountManager.load(path, new TokenVault(testCipher()));
    const a = await accounts.save(account);
    const b = await accounts.save({ ...account, name: 'Other', teamId: 'other' });
    expect(accounts.activeId).toBe(b);
    await accounts.setActive(a);
    expect(accounts.activeId).toBe(a);
    await accounts.remove(a);
    expect(accounts.activeId).toBe(b);
    await accounts.remove(b);
    expect(accounts.activeId).toBeNull();
  });
});
