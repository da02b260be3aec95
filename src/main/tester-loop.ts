/**
 * The tester's loop in main: N makes a fresh address, copies it and watches
 * it; the first email to it is opened (the renderer is told) and its code,
 * else its main link, goes to the clipboard. Main also keeps the newest
 * email's code for the global shortcut, the tray and the notification's Copy.
 * On a remote server a watched inbox is asked for every 2 s, never past the
 * rate budget; the app's own services (the catcher) say when mail arrives.
 * Nothing here reads the clipboard back, and nothing fetches anything an
 * email points at. No electron import: index.ts hands in the desktop.
 */
import { randomBytes } from 'node:crypto';
import type { RateLimitState } from '../shared/contract.ts';
import { preferredFormat, type Email } from '../shared/domain/email.ts';
import { insightsOf } from '../shared/domain/mail-insights.ts';
import { canPoll, canPrefetch } from '../shared/domain/rate-budget.ts';
import {
  acceleratorProblem,
  answersWatch,
  freshAddress,
  MAX_WATCHES,
  patternProblem,
  randomPart,
  WATCH_MAX_MS,
  WATCH_POLL_MS,
  whatToCopy,
  type LoopState,
  type Newest,
  type Watch,
  type WatchCaught,
} from '../shared/domain/tester-loop.ts';
import type { ServiceClient } from './api/client.ts';
import { ServiceError } from './api/errors.ts';

export interface LoopDeps {
  withClient: <T>(run: (client: ServiceClient) => Promise<T>) => Promise<T>;
  /** The open account is one of the app's own services: asking it costs nothing. */
  isLocal: () => boolean;
  rate: () => RateLimitState;
  /** The pattern fresh addresses are made from for the open account (null: none known yet). */
  addressPattern: (client: ServiceClient) => Promise<string | null>;
  copyText: (text: string) => void;
  /** The loop's state changed (watches, the newest code, the shortcut): the renderer and the tray follow. */
  onState: (state: LoopState) => void;
  onCaught: (caught: WatchCaught) => void;
  /** A desktop notification of a new email, carrying what `copy` would put on the clipboard (null: nothing). */
  notify?: (note: { title: string; body: string; copy: string | null }) => void;
  /** Whether the user wants notifications of new mail. */
  notifyWanted: () => boolean;
  /** The system-wide shortcut (Electron's globalShortcut); absent where the platform has none. */
  shortcuts?: { register(accelerator: string, run: () => void): boolean; unregister(accelerator: string): void };
  /** Mail was caught: the list follows at once (the poller's page 1). */
  refreshList: () => void;
  setTimer: (run: () => void, ms: number) => () => void;
  now: () => number;
  random?: () => string;
  pollMs?: number;
  maxMs?: number;
}

export class TesterLoop {
  private readonly deps: LoopDeps;
  private watches: Watch[] = [];
  private newest: Newest | null = null;
  private shortcut: LoopState['shortcut'] = { accelerator: '', status: 'off' };
  private registered: string | null = null;
  private cancelTimer: (() => void) | null = null;
  private checking = false;
  /** Emails already looked at (notified, or caught): never twice. */
  private readonly seen = new Set<string>();

  constructor(deps: LoopDeps) {
    this.deps = deps;
  }

  get state(): LoopState {
    return { watches: this.watches.map((w) => ({ ...w })), newest: this.newest, shortcut: { ...this.shortcut } };
  }

  private changed(): void {
    this.deps.onState(this.state);
  }

  /**
   * A fresh address from the open account's pattern: copied, and watched from
   * now. The oldest watch ends when there are already MAX_WATCHES.
   */
  async newAddress(): Promise<{ address: string; until: number }> {
    const pattern = await this.deps.withClient((client) => this.deps.addressPattern(client));
    if (pattern === null) {
      throw new ServiceError('validation', 'This server has no mail yet to learn its domain from: set the address pattern for this account in Settings (for example qa+{random}@your-domain).');
    }
    const problem = patternProblem(pattern);
    if (problem) throw new ServiceError('validation', `The address pattern “${pattern}” cannot make addresses: ${problem}`);
    const address = freshAddress(pattern, this.deps.random?.() ?? randomPart(randomBytes(10)))!;
    const now = this.deps.now();
    const watch = { address, startedAt: now, until: now + (this.deps.maxMs ?? WATCH_MAX_MS) };
    this.watches = [...this.watches, watch].slice(-MAX_WATCHES);
    this.deps.copyText(address);
    this.changed();
    this.schedule();
    return { address, until: watch.until };
  }

  /** Stops watching one address (Esc on the watch, or the user's choice). */
  stopWatch(address: string): void {
    const before = this.watches.length;
    this.watches = this.watches.filter((w) => w.address !== address);
    if (this.watches.length !== before) this.changed();
    if (this.watches.length === 0) this.unschedule();
  }

  /** The account changed: its watches end (they were addresses on its server), and its newest code goes. */
  reset(): void {
    this.watches = [];
    this.newest = null;
    this.seen.clear();
    this.unschedule();
    this.changed();
  }

  /** Mail arrived at one of the app's own services: look at once. */
  arrived(): void {
    if (this.watches.length > 0) void this.check();
  }

  /**
   * New mail the poller found (newest first): the newest email's code is
   * kept for the shortcut and the tray, and a notification carries it.
   * On a remote server the body is asked for only while the budget allows
   * prefetching; otherwise the notification goes without a code.
   */
  async newMail(emails: Email[]): Promise<void> {
    const unseen = emails.filter((email) => !this.seen.has(email.id));
    if (unseen.length === 0) return;
    for (const email of unseen) this.seen.add(email.id);
    const first = unseen[0]!;
    const newest = await this.describe(first).catch(() => null);
    if (newest) {
      this.newest = newest;
      this.changed();
    }
    if (!this.deps.notifyWanted() || !this.deps.notify) return;
    const from = first.sender.display_name || first.sender.email;
    const copy = newest ? (newest.code ?? newest.link) : null;
    const title = unseen.length === 1 ? `New mail from ${from}` : `${unseen.length} new emails`;
    const body = `${first.subject || '(no subject)'}${newest?.code ? `\nCode: ${newest.code}` : ''}`;
    this.deps.notify({ title, body, copy });
  }

  /** The global shortcut, the tray and the palette: the newest email's code (else link) to the clipboard. */
  copyNewest(): { kind: 'code' | 'link'; text: string } | null {
    const copied = whatToCopy(this.newest);
    if (copied) this.deps.copyText(copied.text);
    return copied;
  }

  /** Sets the global shortcut: '' turns it off; a taken or malformed one is said, not forced. */
  applyShortcut(accelerator: string): LoopState['shortcut'] {
    if (this.registered !== null) this.deps.shortcuts?.unregister(this.registered);
    this.registered = null;
    const wanted = accelerator.trim();
    if (wanted === '') this.shortcut = { accelerator: '', status: 'off' };
    else if (acceleratorProblem(wanted) !== null) this.shortcut = { accelerator: wanted, status: 'invalid' };
    else if (!this.deps.shortcuts) this.shortcut = { accelerator: wanted, status: 'unsupported' };
    else {
      const shortcuts = this.deps.shortcuts;
      // Electron throws on an accelerator it cannot parse: that is a no as well.
      const ok = (() => {
        try {
          return shortcuts.register(wanted, () => void this.copyNewest());
        } catch {
          return false;
        }
      })();
      if (ok) this.registered = wanted;
      this.shortcut = { accelerator: wanted, status: ok ? 'on' : 'taken' };
    }
    this.changed();
    return { ...this.shortcut };
  }

  dispose(): void {
    this.unschedule();
    if (this.registered !== null) this.deps.shortcuts?.unregister(this.registered);
    this.registered = null;
  }

  /** The code and link of one email, from its body as the reader gets it (and keeps: opening it costs nothing more). */
  private async describe(email: Email): Promise<Newest | null> {
    const format = preferredFormat(email);
    const base = { emailId: email.id, subject: email.subject, from: email.sender.display_name || email.sender.email };
    if (format === 'raw') return { ...base, code: null, link: null };
    if (!this.deps.isLocal() && !canPrefetch(this.deps.rate(), this.deps.now())) return null;
    const body = await this.deps.withClient((client) => client.readerBody(email.id, format));
    const insights = insightsOf(email.subject, body);
    return { ...base, code: insights.code?.code ?? null, link: insights.link?.url ?? null };
  }

  private schedule(): void {
    if (this.cancelTimer !== null || this.watches.length === 0) return;
    this.cancelTimer = this.deps.setTimer(() => {
      this.cancelTimer = null;
      void this.check().finally(() => this.schedule());
    }, this.deps.pollMs ?? WATCH_POLL_MS);
  }

  private unschedule(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /** Each open watch: ended when its time is up, else its inbox asked for (within the budget on a remote server). */
  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const now = this.deps.now();
      const expired = this.watches.filter((w) => w.until <= now);
      if (expired.length > 0) {
        this.watches = this.watches.filter((w) => w.until > now);
        this.changed();
      }
      for (const watch of [...this.watches]) {
        if (!this.deps.isLocal() && !canPoll(this.deps.rate(), this.deps.now())) return;
        const page = await this.deps.withClient((client) => client.listEmails({ inbox: watch.address, limit: 10 }, { fresh: true }));
        // The first email to it: the list is newest first.
        const first = [...page.data].reverse().find((email) => answersWatch(watch.address, email.inbox.email));
        if (first && this.watches.includes(watch)) await this.caught(watch, first);
      }
    } catch {
      // A failed check is quiet: the next one asks again, and the user's own requests report errors.
    } finally {
      this.checking = false;
    }
  }

  private async caught(watch: Watch, email: Email): Promise<void> {
    this.watches = this.watches.filter((w) => w !== watch);
    this.seen.add(email.id);
    const newest = await this.describe(email).catch(() => null);
    const copied = whatToCopy(newest);
    if (copied) this.deps.copyText(copied.text);
    if (newest) this.newest = newest;
    this.changed();
    this.deps.onCaught({ address: watch.address, emailId: email.id, subject: email.subject, copied });
    this.deps.refreshList();
    if (this.watches.length === 0) this.unschedule();
  }
}
