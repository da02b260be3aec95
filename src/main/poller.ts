/**
 * New mail arrives by itself: while the window is visible, main asks for page
 * 1 of the list the user is looking at, every `intervalMs`, and only while the
 * rate budget allows (rate-budget.ts: never during a 429 wait, never below the
 * floor). A refresh by the user resets the timer. No electron import.
 */
import type { RateLimitState } from '../shared/contract.ts';
import type { ListQuery } from '../shared/domain/list-query.ts';
import { canPoll } from '../shared/domain/rate-budget.ts';
import type { EmailListing } from './api/client.ts';

export const DEFAULT_POLL_MS = 30_000;
/** Ids remembered as seen: far more than a page 1 holds, so a row that slips off and back is not news; bounded, so a catcher taking mail all day does not grow main. */
export const MAX_KNOWN_IDS = 2000;

/** Adds ids as the newest seen (a seen id moves up), then forgets the oldest beyond the cap. */
function remember(known: Set<string>, ids: readonly string[]): Set<string> {
  for (const id of ids) {
    known.delete(id);
    known.add(id);
  }
  for (const oldest of known) {
    if (known.size <= MAX_KNOWN_IDS) break;
    known.delete(oldest);
  }
  return known;
}

export interface PollerDeps {
  intervalMs: number;
  fetchPage: (query: ListQuery) => Promise<EmailListing>;
  /** The team's unread total (for the dock/taskbar badge). */
  fetchUnread: () => Promise<number>;
  rate: () => RateLimitState;
  /** Page 1 of the watched list, as it is now. */
  onPage: (query: ListQuery, page: EmailListing) => void;
  /** Emails that arrived since the last poll (never on the first one). */
  onNewMail: (emails: EmailListing['data']) => void;
  onUnread: (count: number) => void;
  setTimer: (run: () => void, ms: number) => () => void;
  now: () => number;
}

/** One list whatever its page: what the poller compares. */
const listKey = (query: ListQuery | null): string | null => {
  if (query === null) return null;
  const { page: _page, ...rest } = query;
  return JSON.stringify(Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b))));
};

export class MailPoller {
  private readonly deps: PollerDeps;
  private query: ListQuery | null = null;
  private visible = false;
  private cancel: (() => void) | null = null;
  private known: Set<string> | null = null;
  private running = false;
  /** A poll was asked for while one ran: it runs again when that one is done. */
  private again = false;
  /** How many ids it remembers as seen (bounded by MAX_KNOWN_IDS). */
  get knownCount(): number {
    return this.known?.size ?? 0;
  }

  /** Polls actually sent, and skipped for the budget (for tests and the bench). */
  readonly counts = { polled: 0, skipped: 0 };

  constructor(deps: PollerDeps) {
    this.deps = deps;
  }

  /** Page 1 of a list as the user loaded it: what is on screen is not new mail to the next poll. */
  private listed: { key: string; ids: string[] } | null = null;

  /** The user's own load of a list: its page 1 rows count as known (so the first arrival after it is news). */
  noteListed(query: ListQuery, ids: string[]): void {
    if ((query.page ?? 1) !== 1) return;
    const key = listKey(query)!;
    this.listed = { key, ids };
    if (this.query !== null && key === listKey(this.query)) this.known = remember(this.known ?? new Set(), ids);
  }

  /** What the user looks at, and whether they can see it; null stops. */
  watch(query: ListQuery | null, visible: boolean): void {
    if (listKey(query) !== listKey(this.query)) this.known = query !== null && this.listed?.key === listKey(query) ? new Set(this.listed.ids) : null;
    this.query = query === null ? null : { ...query, page: 1 };
    this.visible = visible;
    this.reschedule();
  }

  /** The user refreshed: that was a poll; the next one waits a full interval. */
  refreshed(): void {
    this.reschedule();
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.query = null;
  }

  private reschedule(): void {
    this.cancel?.();
    this.cancel = null;
    if (this.query === null || !this.visible) return;
    this.cancel = this.deps.setTimer(() => void this.tick(), this.deps.intervalMs);
  }

  /**
   * Mail arrived on a service that says so (the catcher): poll now, window hidden
   * or not, so the list, the badge and the notification follow at once.
   */
  arrived(): void {
    void this.tick({ evenHidden: true });
  }

  /** One poll, if the budget allows; then the next one is scheduled either way. */
  async tick(options: { evenHidden?: boolean } = {}): Promise<void> {
    const query = this.query;
    if (query === null || (!this.visible && !options.evenHidden)) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (!canPoll(this.deps.rate(), this.deps.now())) {
      this.counts.skipped += 1;
      this.reschedule();
      return;
    }
    this.running = true;
    try {
      this.counts.polled += 1;
      const page = await this.deps.fetchPage(query);
      if (this.query === query) {
        const fresh = this.known === null ? [] : page.data.filter((email) => !this.known!.has(email.id));
        this.known = remember(this.known ?? new Set(), page.data.map((email) => email.id));
        this.deps.onPage(query, page);
        if (fresh.length > 0) this.deps.onNewMail(fresh);
      }
      if (canPoll(this.deps.rate(), this.deps.now())) this.deps.onUnread(await this.deps.fetchUnread());
    } catch {
      // A failed poll is quiet: the user's own requests report errors.
    } finally {
      this.running = false;
      this.reschedule();
      if (this.again) {
        this.again = false;
        void this.tick({ evenHidden: true });
      }
    }
  }
}
