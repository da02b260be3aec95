import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { dispatch, type Handlers } from '../../src/main/handlers.ts';
import type { Events } from '../../src/shared/contract.ts';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { testCipher } from '../support/cipher.ts';
import { mainHandlers } from '../support/main-handlers.ts';
import { rawMail } from '../support/mail.ts';
import { sendJson, stubServer } from '../support/stub-server.ts';

describe('handlers over two accounts', () => {
  let dir: string;
  let a: RunningService;
  let b: RunningService;
  let handlers: Handlers;
  let accounts: AccountManager;
  const events: { event: string; payload: unknown }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-handlers-'));
    a = await startReferenceService({ teams: [{ id: 'a', token: 'token-of-team-a' }] });
    b = await startReferenceService({ teams: [{ id: 'b', token: 'token-of-team-b' }] });
    await a.inject(rawMail({ subject: 'Mail of team A' }));
    await b.inject(rawMail({ subject: 'Mail of team B' }));
    accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    handlers = mainHandlers(accounts, {
      desktop: { confirm: async () => false },
      emit: <E extends keyof Events>(event: E, payload: Events[E]) => events.push({ event, payload }),
    });
  });
  afterAll(async () => {
    handlers.dispose();
    await a.close();
    await b.close();
    await rm(dir, { recursive: true, force: true });
  });

  const subjects = async () => {
    const envelope = await dispatch(handlers, 'listEmails', {});
    if (!envelope.ok) throw new Error(envelope.error.message);
    return (envelope.value as { data: { subject: string }[] }).data.map((e) => e.subject);
  };

  it("never shows one account's emails under another", async () => {
    const saveA = await dispatch(handlers, 'saveAccount', { name: 'A', baseUrl: a.baseUrl, teamId: 'a', token: 'token-of-team-a' });
    expect(saveA.ok).toBe(true);
    const idA = accounts.activeId!;
    expect(await subjects()).toEqual(['Mail of team A']);

    await dispatch(handlers, 'saveAccount', { name: 'B', baseUrl: b.baseUrl, teamId: 'b', token: 'token-of-team-b' });
    const idB = accounts.activeId!;
    expect(await subjects()).toEqual(['Mail of team B']);

    await dispatch(handlers, 'switchAccount', { id: idA });
    expect(await subjects()).toEqual(['Mail of team A']);
    await dispatch(handlers, 'switchAccount', { id: idB });
    expect(await subjects()).toEqual(['Mail of team B']);
    expect(events.filter((e) => e.event === 'accountsChanged').length).toBeGreaterThanOrEqual(4);
  });

  it('drops a slow answer from the old account that lands after a switch', async () => {
    const slow = await stubServer((_q, r) =>
      setTimeout(
        () => sendJson(r, 200, { data: [], links: {}, meta: { current_page: 1, last_page: 1, per_page: 25, total: 99 } }),
        300,
      ),
    );
    try {
      await dispatch(handlers, 'saveAccount', { name: 'Slow', baseUrl: slow.url, teamId: 's', token: 'token-slow' });
      const pending = dispatch(handlers, 'listEmails', { search: 'slow' });
      await new Promise((r) => setTimeout(r, 50));
      const idB = accounts.summaries().find((s) => s.name === 'B')!.id;
      await dispatch(handlers, 'switchAccount', { id: idB });
      const late = await pending;
      expect(late.ok).toBe(false);
      expect(await subjects()).toEqual(['Mail of team B']);
    } finally {
      await slow.close();
    }
  });

  it('tests a connection before saving, reporting a bad token clearly', async () => {
    const good = await dispatch(handlers, 'testConnection', { baseUrl: a.baseUrl, teamId: 'a', token: 'token-of-team-a' });
    expect(good).toEqual({ ok: true, value: { ok: true, total: 1, flavor: 'service-v1', baseUrl: a.baseUrl, teamId: 'a' } });
    const bad = await dispatch(handlers, 'testConnection', { baseUrl: a.baseUrl, teamId: 'a', token: 'wrong-token-123' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.kind).toBe('auth');
      expect(JSON.stringify(bad)).not.toContain('wrong-token-123');
    }
  });

  it('validates an automation before sending it, with field errors', async () => {
    const envelope = await dispatch(handlers, 'createAutomation', { input: { title: '', action_url: 'nope' } });
    expect(envelope.ok).toBe(false);
    if (!envelope.ok) {
      expect(envelope.error.kind).toBe('validation');
      expect(Object.keys(envelope.error.details.fields ?? {}).sort()).toEqual(['action_url', 'title']);
    }
  });
});

describe('a switch while the demo is still starting', () => {
  it('keeps the account switched to: the demo, once up, neither replaces its client nor cuts its request', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-handlers-demo-'));
    const demo = await startReferenceService({ teams: [{ id: 'demo', token: 'demo-token' }] });
    await demo.inject(rawMail({ subject: 'Demo mail' }));
    // The user's server answers after 300 ms: its request is on the way when the demo comes up.
    const slow = await stubServer((_q, r) => setTimeout(() => sendJson(r, 200, { data: [], links: {}, meta: { current_page: 1, last_page: 1, per_page: 25, total: 7 } }), 300));
    let demoUp: (connection: { baseUrl: string; teamId: string; token: string }) => void = () => undefined;
    const accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    const handlers = mainHandlers(accounts, { mail: { startDemo: () => new Promise((resolve) => (demoUp = resolve)) } });
    try {
      // The first screen asks the demo for its list; the demo's worker is still starting.
      const demoList = dispatch(handlers, 'listEmails', {});
      // Meanwhile the user connects their own server, and its list is asked for.
      expect((await dispatch(handlers, 'saveAccount', { name: 'Ours', baseUrl: slow.url, teamId: 's', token: 'token-ours' })).ok).toBe(true);
      const ourList = dispatch(handlers, 'listEmails', {});
      await new Promise((r) => setTimeout(r, 50));
      demoUp({ baseUrl: demo.baseUrl, teamId: 'demo', token: 'demo-token' });
      const ours = await ourList;
      expect(ours.ok && (ours.value as { meta: { total: number } }).meta.total).toBe(7);
      // The demo's late answer is not shown under the other account.
      expect((await demoList).ok).toBe(false);
      const again = await dispatch(handlers, 'listEmails', { page: 2 });
      expect(again.ok && (again.value as { meta: { total: number } }).meta.total).toBe(7);
    } finally {
      handlers.dispose();
      await slow.close();
      await demo.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
