/**
 * The wait room against a plain model: a waiter answers at the first arrival
 * that makes its question true (or at once), never for another team, gives up
 * at its timeout or when its client goes, and one client holds at most the cap.
 */
import { describe, expect, it } from 'vitest';
import { MAX_WAITS_PER_CLIENT, TooManyWaits, WaitRoom } from '../../src/server/catcher-api/waits.ts';
import type { ReferenceService } from '../../src/server/service.ts';

function fakeService() {
  const listeners: ((teamId: string) => void)[] = [];
  const service = { onArrival: (listener: (teamId: string) => void) => listeners.push(listener) } as unknown as ReferenceService;
  return { service, arrive: (teamId: string) => listeners.forEach((l) => l(teamId)) };
}

describe('WaitRoom', () => {
  it('answers at once, at the arrival that makes it true, and never for another team', async () => {
    const { service, arrive } = fakeService();
    const room = new WaitRoom(service);
    const store: string[] = [];
    expect(await room.wait({ teamId: 'a', client: 'c', timeoutMs: 1000 }, () => 'here already')).toBe('here already');
    const waiting = room.wait({ teamId: 'a', client: 'c', timeoutMs: 5000 }, () => store.find((s) => s.startsWith('a:')) ?? null);
    store.push('b:1');
    arrive('b');
    store.push('a:other-inbox'.replace('a:', 'x:'));
    arrive('a');
    expect(room.holding).toBe(1);
    store.push('a:2');
    arrive('a');
    expect(await waiting).toBe('a:2');
    expect(room.holding).toBe(0);
  });

  it('gives up at its timeout and when its client goes, and frees the client’s place', async () => {
    const { service } = fakeService();
    const room = new WaitRoom(service);
    expect(await room.wait({ teamId: 'a', client: 'c', timeoutMs: 20 }, () => null)).toBeNull();
    const gone = new AbortController();
    const waiting = room.wait({ teamId: 'a', client: 'c', timeoutMs: 60_000, signal: gone.signal }, () => null);
    gone.abort();
    expect(await waiting).toBeNull();
    expect(room.holding).toBe(0);
  });

  it(`holds at most ${MAX_WAITS_PER_CLIENT} for one client, and another client still waits`, async () => {
    const { service, arrive } = fakeService();
    const room = new WaitRoom(service);
    let ready = false;
    const held = Array.from({ length: MAX_WAITS_PER_CLIENT }, () => room.wait({ teamId: 'a', client: 'suite', timeoutMs: 60_000 }, () => (ready ? 'done' : null)));
    await expect(room.wait({ teamId: 'a', client: 'suite', timeoutMs: 60_000 }, () => null)).rejects.toBeInstanceOf(TooManyWaits);
    const other = room.wait({ teamId: 'a', client: 'other', timeoutMs: 60_000 }, () => (ready ? 'done' : null));
    ready = true;
    arrive('a');
    expect(new Set(await Promise.all([...held, other]))).toEqual(new Set(['done']));
    expect(room.holding).toBe(0);
  });
});
