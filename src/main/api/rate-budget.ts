/**
 * The server's request budget (X-RateLimit-Limit / -Remaining, a fixed window
 * as Laravel's throttle keeps it), spent so that the app never earns a 429 by
 * its own doing. A request the user is waiting for (reading) goes while any
 * budget is left; background work (marking read, prefetch) only while more
 * than a reserve is, and otherwise waits, queued, for the next window. When
 * nothing is left, even reading waits for the window instead of asking.
 * No electron, no timers of its own: the clock and the sleep are handed in.
 */
export type Priority = 'read' | 'background';

export interface RateReading {
  limit: number | null;
  remaining: number | null;
  retryAfterSeconds?: number;
}

export interface BudgetOptions {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How long the server's window is, where it does not say (Laravel's throttle:60,1: a minute). */
  windowMs: number;
  /** What background work leaves for reading. */
  reserve: number;
  /** Told when reading has to wait for the window (the app says so, with a countdown). */
  onWait?: (until: number) => void;
}

export class RateBudget {
  private limit: number | null = null;
  private remaining: number | null = null;
  /** When the current window ends, as far as can be told. */
  private resetAt: number | null = null;
  /** Requests sent whose answer has not said what is left. */
  private inFlight = 0;
  private readonly options: BudgetOptions;

  constructor(options: BudgetOptions) {
    this.options = options;
  }

  /** What an answer said. A window starts when what is left goes up, or at its first request. */
  note(reading: RateReading): void {
    const now = this.options.now();
    if (reading.retryAfterSeconds !== undefined) this.resetAt = now + reading.retryAfterSeconds * 1000;
    if (reading.limit !== null) this.limit = reading.limit;
    if (reading.remaining === null) return;
    const freshWindow = this.remaining === null || reading.remaining > this.remaining || (this.limit !== null && reading.remaining >= this.limit - 1);
    if (freshWindow && reading.retryAfterSeconds === undefined) this.resetAt = now + this.options.windowMs;
    this.remaining = reading.remaining;
  }

  private available(): number {
    return this.limit === null || this.remaining === null ? Number.POSITIVE_INFINITY : this.remaining - this.inFlight;
  }

  /**
   * Waits until a request of this priority may go, then counts it as sent;
   * call the answer once its response has been noted (or it failed).
   */
  async acquire(priority: Priority, signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      const needed = priority === 'read' ? 1 : this.options.reserve + 1;
      if (this.available() >= needed) break;
      const now = this.options.now();
      const until = this.resetAt ?? now + this.options.windowMs;
      if (until <= now) {
        // The window has passed: the budget is whole again until an answer says otherwise.
        this.remaining = this.limit;
        this.resetAt = now + this.options.windowMs;
        continue;
      }
      if (priority === 'read') this.options.onWait?.(until);
      await this.options.sleep(until - now, signal);
    }
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
    };
  }
}
