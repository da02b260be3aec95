import { describe, expect, it } from 'vitest';
import type { EmailListing } from '../../src/main/api/client.ts';
import { MailPoller, MAX_KNOWN_IDS, type PollerDeps } from '../../src/main/poller.ts';
import type { RateLimitState } from '../../src/shared/contract.ts';
import { POLL_FLOOR } from '../../src/shared/domain/rate-budget.ts';

const email = (id: string) => ({ id, subject: `Mail ${id}`, sender: { display_name: '', email: 'a@b.test' } }) as EmailListing['data'][number];
const page = (ids: string[]) => ({ data: ids.map(email), links: {}, meta: { total: ids.length } }) as unknown as EmailListing;

function harness() {
  let rate: RateLimitState = { limit: 60, remaining: 50, blockedUntil: null };
  let now = 1_000_000;
  let ids = ['a', 'b'];
  const timers: { run: () => void; ms: number; live: boolean }[] = [];
  const seen = { pages: 0, fresh: [] as string[][], unread: [] as number[], requests: 0 };
  const deps: PollerDeps = {
    intervalMs: 30_000,
    fetchPage: async () => {
      seen.requests += 1;
      return page(ids);
    },
    fetchUnread: async () => {
      seen.requests += 1;
      return ids.length;
    },
    rate: () => rate,
    onPage: () => {
      seen.pages += 1;
    },
    onNewMail: (emails) => seen.fresh.push(emails.map((e) => e.id)),
    onUnread: (count) => seen.unread.push(count),
    setTimer: (run, ms) => {
      const timer = { run, ms, live: true };
      timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
    now: () => now,
  };
  const poller = new MailPoller(deps);
  /** Fires the one live timer, as if its interval passed. */
  const elapse = async () => {
    const live = timers.filter((t) => t.live);
    expect(live).toHaveLength(1);
    live[0]!.live = false;
    now += live[0]!.ms;
    live[0]!.run();
    await new Promise((r) => setTimeout(r, 0));
  };
  return {
    poller,
    seen,
    timers,
    elapse,
    setRate: (next: Partial<RateLimitState>) => (rate = { ...rate, ...next }),
    arrive: (id: string) => (ids = [id, ...ids]),
    /** Page 1 as a catcher taking a burst shows it: the newest 50. */
    burst: (count: number, tag: string) => (ids = [...Array.from({ length: count }, (_, i) => `${tag}-${count - i}`), ...ids].slice(0, 50)),
    setIds: (next: string[]) => (ids = next),
    liveTimers: () => timers.filter((t) => t.live),
    now: () => now,
  };
}

describe('polling for new mail', () => {
  it('polls page 1 of the watched list every interval while visible, and reports only new arrivals', async () => {
    const h = harness();
    h.poller.watch({ inbox: 'support@acme.test', page: 3 }, true);
    expect(h.liveTimers().map((t) => t.ms)).toEqual([30_000]);
    await h.elapse();
    expect(h.seen.pages).toBe(1);
    expect(h.seen.fresh).toEqual([]); // the first poll is the baseline
    h.arrive('c');
    await h.elapse();
    expect(h.seen.fresh).toEqual([['c']]);
    expect(h.seen.unread).toEqual([2, 3]);
    expect(h.poller.counts).toEqual({ polled: 2, skipped: 0 });
  });

  it('remembers a bounded number of ids: a day of arrivals does not grow main, and what is on page 1 is never news again', async () => {
    const h = harness();
    h.poller.watch({}, true);
    await h.elapse();
    for (let round = 0; round < 200; round++) {
      h.burst(40, `r${round}`);
      await h.elapse();
    }
    // 8,000 arrivals reported once each, and no more remembered than the cap.
    expect(h.seen.fresh.flat()).toHaveLength(8000);
    expect(new Set(h.seen.fresh.flat()).size).toBe(8000);
    expect(h.poller.knownCount).toBeLessThanOrEqual(MAX_KNOWN_IDS);
    // A row that slips off page 1 and comes back (newer mail deleted) is not news.
    const pageNow = h.seen.fresh.at(-1)!;
    h.burst(50, 'late');
    await h.elapse();
    h.setIds(pageNow);
    await h.elapse();
    expect(h.seen.fresh.at(-1)!.every((id) => id.startsWith('late-'))).toBe(true);
  });

  it('stops while the window is hidden and when nothing is watched', async () => {
    const h = harness();
    h.poller.watch({}, false);
    expect(h.liveTimers()).toEqual([]);
    h.poller.watch({}, true);
    expect(h.liveTimers()).toHaveLength(1);
    h.poller.watch(null, true);
    expect(h.liveTimers()).toEqual([]);
  });

  it(`skips below ${POLL_FLOOR} requests left and during a 429 wait, and carries on after`, async () => {
    const h = harness();
    h.poller.watch({}, true);
    h.setRate({ remaining: POLL_FLOOR - 1 });
    await h.elapse();
    h.setRate({ remaining: 40, blockedUntil: h.now() + 60_000 });
    await h.elapse();
    expect(h.seen.requests).toBe(0);
    expect(h.poller.counts).toEqual({ polled: 0, skipped: 2 });
    h.setRate({ remaining: POLL_FLOOR, blockedUntil: null });
    await h.elapse();
    expect(h.poller.counts.polled).toBe(1);
    // Right at the floor a poll goes out, with its unread count.
    expect(h.seen.requests).toBe(2);
  });

  it('a refresh by the user resets the timer', () => {
    const h = harness();
    h.poller.watch({}, true);
    const first = h.liveTimers()[0]!;
    h.poller.refreshed();
    expect(first.live).toBe(false);
    expect(h.liveTimers()).toHaveLength(1);
  });

  it('a new filter starts a new baseline: its existing mail is not "new"', async () => {
    const h = harness();
    h.poller.watch({}, true);
    await h.elapse();
    h.poller.watch({ unread: true }, true);
    h.arrive('z');
    await h.elapse();
    expect(h.seen.fresh).toEqual([]);
  });
});
