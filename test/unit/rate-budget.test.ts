/**
 * The rate budget against a plain model of the server's throttle (Laravel's
 * fixed window: a window opens at the first request and lasts windowMs; past
 * the limit, 429). Random mixes of reading and background requests, sent as
 * the app sends them (several at once): the model must never answer 429, and
 * every request must go out in the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateBudget, type Priority } from '../../src/main/api/rate-budget.ts';

function simulate(limit: number, windowMs: number, requests: { priority: Priority; at: number }[]) {
  let now = 0;
  // The server: a fixed window from its first request.
  let windowStart: number | null = null;
  let count = 0;
  const tooMany: number[] = [];
  const server = () => {
    if (windowStart === null || now - windowStart >= windowMs) {
      windowStart = now;
      count = 0;
    }
    count += 1;
    if (count > limit) tooMany.push(now);
    return { limit, remaining: Math.max(0, limit - count) };
  };
  // Timers the budget's sleeps wait on, run in time order.
  const timers: { at: number; run: () => void }[] = [];
  const budget = new RateBudget({
    now: () => now,
    windowMs,
    reserve: 3,
    sleep: (ms) => new Promise<void>((resolve) => timers.push({ at: now + ms, run: resolve })),
  });
  let done = 0;
  const sent: Promise<void>[] = [];
  return (async () => {
    for (const request of [...requests].sort((a, b) => a.at - b.at)) {
      // Time passes between the app's requests; whatever was waiting runs meanwhile.
      while (timers.length > 0 && Math.min(...timers.map((t) => t.at)) <= request.at) {
        const next = timers.sort((a, b) => a.at - b.at).shift()!;
        now = Math.max(now, next.at);
        next.run();
        await new Promise((r) => setImmediate(r));
      }
      now = Math.max(now, request.at);
      sent.push(
        (async () => {
          const release = await budget.acquire(request.priority);
          budget.note(server());
          release();
          done += 1;
        })(),
      );
      await new Promise((r) => setImmediate(r));
    }
    while (done < requests.length) {
      const next = timers.sort((a, b) => a.at - b.at).shift();
      if (!next) break;
      now = Math.max(now, next.at);
      next.run();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(sent);
    return { tooMany, done };
  })();
}

describe('the rate budget (issue 20)', () => {
  it('never earns a 429 and loses no request, on 500 random mixes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 5, max: 30 }),
        fc.array(fc.record({ priority: fc.constantFrom<Priority>('read', 'background'), at: fc.integer({ min: 0, max: 3000 }) }), { minLength: 10, maxLength: 90, size: 'max' }),
        async (limit, requests) => {
          const { tooMany, done } = await simulate(limit, 1000, requests);
          expect(tooMany).toEqual([]);
          expect(done).toBe(requests.length);
        },
      ),
      { numRuns: 500, seed: 20 },
    );
  });

  it('lets reading through while background work waits for the reserve', async () => {
    let now = 0;
    const waits: number[] = [];
    const budget = new RateBudget({ now: () => now, windowMs: 60_000, reserve: 10, sleep: async (ms) => void (now += ms), onWait: (until) => waits.push(until) });
    budget.note({ limit: 60, remaining: 10 });
    const reading = await budget.acquire('read');
    reading();
    // Background work at the reserve waits the window out; reading did not.
    const background = budget.acquire('background');
    await background;
    expect(now).toBe(60_000);
    expect(waits).toEqual([]);
  });
});
