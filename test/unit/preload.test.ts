import { describe, expect, it, vi } from 'vitest';
import { buildWindowApi, type IpcLike } from '../../src/preload/api.ts';
import { BRIDGE_SPEC, contract, METHODS } from '../../src/shared/contract.ts';

function fakeIpc() {
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  const ipc: IpcLike & { emit: (channel: string, payload: unknown) => void; count: (channel: string) => number } = {
    invoke: vi.fn(async (channel: string, arg: unknown) => ({ ok: true, value: { channel, arg } })),
    on: (channel, listener) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
    emit: (channel, payload) => listeners.get(channel)?.forEach((l) => l({ sender: 'ipc-event-object' }, payload)),
    count: (channel) => listeners.get(channel)?.size ?? 0,
  };
  return ipc;
}

describe('preload: window.api', () => {
  it('names exactly the methods of the contract table', () => {
    expect([...METHODS].sort()).toEqual(Object.keys(contract).sort());
  });

  it('exposes only the contract methods and `on`: no ipcRenderer, no generic invoke', () => {
    const api = buildWindowApi(fakeIpc(), BRIDGE_SPEC);
    expect(Object.keys(api).sort()).toEqual([...METHODS, 'on'].sort());
    expect(Object.values(api).every((v) => typeof v === 'function')).toBe(true);
    expect('invoke' in api).toBe(false);
    expect('send' in api).toBe(false);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('sends each method on its own channel with the argument as given', async () => {
    const ipc = fakeIpc();
    const api = buildWindowApi(ipc, BRIDGE_SPEC);
    const answer = await api.getEmail({ id: 'abc' });
    expect(ipc.invoke).toHaveBeenCalledWith('inbox-desk:getEmail', { id: 'abc' });
    expect(answer).toEqual({ ok: true, value: { channel: 'inbox-desk:getEmail', arg: { id: 'abc' } } });
  });

  it('asks the first screen’s questions as it is built, and hands each answer to the first call only', async () => {
    const ipc = fakeIpc();
    const api = buildWindowApi(ipc, BRIDGE_SPEC);
    // Before the renderer's bundle has run at all: every early question is on its way to main.
    expect(vi.mocked(ipc.invoke).mock.calls.map(([channel]) => channel)).toEqual(BRIDGE_SPEC.early.map((m) => `inbox-desk:${m}`));
    expect(BRIDGE_SPEC.early).toContain('getSnapshot');
    const first = await api.getSnapshot(undefined);
    expect(ipc.invoke).toHaveBeenCalledTimes(BRIDGE_SPEC.early.length);
    expect(first).toEqual({ ok: true, value: { channel: 'inbox-desk:getSnapshot', arg: undefined } });
    // The answer is handed over once: a later call asks main again, as does any call of a method not asked early.
    await api.getSnapshot(undefined);
    expect(ipc.invoke).toHaveBeenCalledTimes(BRIDGE_SPEC.early.length + 1);
    await api.listEmails({ page: 1 });
    expect(ipc.invoke).toHaveBeenLastCalledWith('inbox-desk:listEmails', { page: 1 });
  });

  it('asks again when main sent an event before the renderer asked: the early answer may be stale', async () => {
    const ipc = fakeIpc();
    const api = buildWindowApi(ipc, BRIDGE_SPEC);
    const asked = BRIDGE_SPEC.early.length;
    // Say the demo's service started meanwhile, and the accounts changed.
    ipc.emit('inbox-desk:event:accountsChanged', {});
    await api.getAccounts(undefined);
    await api.getSnapshot(undefined);
    expect(ipc.invoke).toHaveBeenCalledTimes(asked + 2);
    // Once nothing early is left, the bridge listens to nothing of its own.
    expect(ipc.count('inbox-desk:event:accountsChanged')).toBe(0);
  });

  it('gives listeners the payload only, and every subscription its own unsubscribe', () => {
    const ipc = fakeIpc();
    const api = buildWindowApi(ipc, BRIDGE_SPEC);
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = api.on('rateLimit', first);
    api.on('rateLimit', second);
    ipc.emit('inbox-desk:event:rateLimit', { remaining: 3 });
    expect(first).toHaveBeenCalledWith({ remaining: 3 });
    expect(first.mock.calls[0]).toHaveLength(1);
    stopFirst();
    stopFirst();
    ipc.emit('inbox-desk:event:rateLimit', { remaining: 2 });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
    expect(ipc.count('inbox-desk:event:rateLimit')).toBe(1);
  });

  it('refuses events the contract does not name', () => {
    const api = buildWindowApi(fakeIpc(), BRIDGE_SPEC);
    expect(() => api.on('not-an-event' as 'rateLimit', () => undefined)).toThrow(/Unknown event/);
  });
});
