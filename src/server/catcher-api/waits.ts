/**
 * Requests held until mail arrives: a test's "wait for the email to this
 * address". A waiter is woken by the store's own arrival event and asks the
 * store for the first match after its cursor, so no arrival can slip between
 * two polls, and no window (the newest 50 of a page, the newest 500 kept)
 * can hide one. Nothing polls while a request waits.
 */
import type { ReferenceService } from '../service.ts';

/** How long one wait may be held (a longer one is refused with why). */
export const MAX_WAIT_SECONDS = 300;
/** Waits one client address may hold at once; past it, 429. */
export const MAX_WAITS_PER_CLIENT = 1000;

interface Waiter {
  teamId: string;
  client: string;
  check: () => boolean;
  done: () => void;
}

export class TooManyWaits extends Error {}

export class WaitRoom {
  private readonly waiters = new Set<Waiter>();
  private readonly perClient = new Map<string, number>();

  constructor(service: ReferenceService) {
    service.onArrival((teamId) => {
      for (const waiter of [...this.waiters]) if (waiter.teamId === teamId && waiter.check()) waiter.done();
    });
  }

  get holding(): number {
    return this.waiters.size;
  }

  /**
   * Answers `find()` as soon as it finds something: at once, or at the first
   * arrival that makes it; null when `timeoutMs` passes or `signal` aborts first.
   */
  wait<T>(options: { teamId: string; client: string; timeoutMs: number; signal?: AbortSignal }, find: () => T | null): Promise<T | null> {
    const now = find();
    if (now !== null) return Promise.resolve(now);
    const held = this.perClient.get(options.client) ?? 0;
    if (held >= MAX_WAITS_PER_CLIENT) return Promise.reject(new TooManyWaits(`This client already holds ${held} waits; answer some first (at most ${MAX_WAITS_PER_CLIENT} at once).`));
    this.perClient.set(options.client, held + 1);
    return new Promise<T | null>((resolve) => {
      let found: T | null = null;
      const waiter: Waiter = {
        teamId: options.teamId,
        client: options.client,
        check: () => (found = find()) !== null,
        done: () => finish(found),
      };
      const finish = (value: T | null) => {
        if (!this.waiters.delete(waiter)) return;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', abort);
        const left = (this.perClient.get(options.client) ?? 1) - 1;
        if (left === 0) this.perClient.delete(options.client);
        else this.perClient.set(options.client, left);
        resolve(value);
      };
      const abort = () => finish(null);
      const timer = setTimeout(() => finish(null), options.timeoutMs);
      this.waiters.add(waiter);
      options.signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Answers every waiter with nothing (the service is closing). */
  close(): void {
    for (const waiter of [...this.waiters]) {
      waiter.check = () => false;
      waiter.done();
    }
  }
}
