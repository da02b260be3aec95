import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { createHandlers, dispatch, type Handlers } from '../../src/main/handlers.ts';
import { ERROR_KINDS } from '../../src/shared/contract.ts';
import { testCipher } from '../support/cipher.ts';

describe('main: dispatch checks every call before anything runs', () => {
  let dir: string;
  let handlers: Handlers;
  const startDemo = vi.fn(async () => ({ baseUrl: 'http://127.0.0.1:9', teamId: 'demo', token: 'demo-token' }));
  const openExternal = vi.fn(async () => undefined);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-dispatch-'));
    const accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    handlers = createHandlers({
      accounts,
      mail: { startDemo },
      desktop: { openExternal, saveFile: async () => null, confirm: async () => false },
      emit: () => undefined,
      app: { name: 'Inbox Desk', version: 'test', platform: 'linux' },
    });
  });
  afterEach(async () => {
    handlers.dispose();
    await rm(dir, { recursive: true, force: true });
    vi.clearAllMocks();
  });

  const malformed: [string, unknown][] = [
    ['getEmail', undefined],
    ['getEmail', { id: 42 }],
    ['getEmail', { id: '' }],
    ['getEmail', { id: '../automations' }],
    ['getEmail', { id: '..' }],
    ['getEmail', { id: 'abc', extra: true }],
    ['getEmailBody', { id: 'abc', format: 'pdf' }],
    ['listEmails', { page: 0 }],
    ['listEmails', { limit: 1000 }],
    ['listEmails', { unread: 'yes' }],
    ['listEmails', { token: 'steal' }],
    ['setFavorite', { id: 'abc' }],
    ['updateAutomation', { id: 'abc', input: 'title=x' }],
    ['saveAccount', { name: 'x'.repeat(101), baseUrl: 'http://x', teamId: 't' }],
    ['openExternal', { url: 5 }],
    ['updateSettings', { pageSize: 3 }],
  ];

  for (const [method, arg] of malformed) {
    it(`rejects ${method}(${JSON.stringify(arg)}) with the contract's error shape`, async () => {
      const envelope = await dispatch(handlers, method, arg);
      expect(envelope.ok).toBe(false);
      if (envelope.ok) return;
      expect(envelope.error.kind).toBe('bad-request');
      expect(envelope.error.message).toMatch(new RegExp(`^Invalid argument for ${method}`));
      expect(envelope.error.details).toEqual({});
      expect(startDemo).not.toHaveBeenCalled();
    });
  }

  it('rejects a method the contract does not name, or a non-string one', async () => {
    for (const method of ['ipcRenderer', '__proto__', 'constructor', 'toString', 42, null]) {
      const envelope = await dispatch(handlers, method, undefined);
      expect(envelope).toEqual({ ok: false, error: { kind: 'bad-request', message: 'Unknown call.', details: {} } });
    }
  });

  it('answers a well-formed call', async () => {
    const envelope = await dispatch(handlers, 'getAppInfo', undefined);
    expect(envelope).toEqual({ ok: true, value: { name: 'Inbox Desk', version: 'test', platform: 'linux', demo: true } });
  });

  it('refuses external links other than http, https and mailto', async () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,hi', 'smb://host/share', 'http://user:pw@host/']) {
      const envelope = await dispatch(handlers, 'openExternal', { url });
      expect(envelope.ok, url).toBe(false);
    }
    expect(openExternal).not.toHaveBeenCalled();
    expect((await dispatch(handlers, 'openExternal', { url: 'https://example.com/a' })).ok).toBe(true);
    expect((await dispatch(handlers, 'openExternal', { url: 'mailto:a@b.test' })).ok).toBe(true);
    expect(openExternal).toHaveBeenCalledTimes(2);
  });

  it('tells the renderer whether a token is set, never the token, and whether settings were recovered', async () => {
    await dispatch(handlers, 'saveAccount', { name: 'A', baseUrl: 'https://a.test', teamId: 't', token: 'secret-123456' });
    const envelope = await dispatch(handlers, 'getAccounts', undefined);
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    expect(JSON.stringify(envelope)).not.toContain('secret-123456');
    expect(envelope.value).toMatchObject({ demo: false, encryptionAvailable: true, settingsRecovered: false });
    expect((envelope.value as { accounts: unknown[] }).accounts[0]).toMatchObject({ hasToken: true, tokenStorage: 'encrypted' });

    await writeFile(join(dir, 'settings.json'), '{"version": 1, "acc');
    await rm(join(dir, 'settings.json.bak'));
    const damaged = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    const fresh = createHandlers({ accounts: damaged, mail: { startDemo }, desktop: { openExternal, saveFile: async () => null, confirm: async () => false }, emit: () => undefined, app: { name: 'x', version: 'x', platform: 'x' } });
    expect(await dispatch(fresh, 'getAccounts', undefined)).toMatchObject({ ok: true, value: { settingsRecovered: true, accounts: [] } });
  });

  it('keeps to the declared error kinds', () => {
    expect(ERROR_KINDS).toEqual([
      'auth', 'forbidden', 'not-found', 'not-acceptable', 'validation', 'rate-limited',
      'timeout', 'network', 'server', 'unsupported', 'bad-response', 'bad-request', 'cancelled',
    ]);
  });
});

describe('main: unexpected failures', () => {
  it('log a trace without the token and answer a plain message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-bug-'));
    const accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    await accounts.save({ name: 'A', baseUrl: 'https://a.test', teamId: 't', token: 'tok-leaky-999' });
    const handlers = createHandlers({
      accounts,
      mail: { startDemo: async () => ({ baseUrl: 'http://127.0.0.1:1', teamId: 'd', token: 'x' }) },
      desktop: {
        openExternal: async () => {
          throw new Error('crashed while holding tok-leaky-999');
        },
        saveFile: async () => null,
        confirm: async () => false,
      },
      emit: () => undefined,
      app: { name: 'x', version: 'x', platform: 'x' },
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const envelope = await dispatch(handlers, 'openExternal', { url: 'https://example.com' });
      expect(envelope).toEqual({
        ok: false,
        error: { kind: 'server', message: 'Inbox Desk hit an unexpected error. Try again.', details: {} },
      });
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]![0])).toContain('crashed while holding [redacted]');
      expect(String(logged.mock.calls[0]![0])).not.toContain('tok-leaky-999');
    } finally {
      logged.mockRestore();
      handlers.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
