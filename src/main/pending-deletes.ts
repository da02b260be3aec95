/**
 * Deletes that can be undone: the DELETE is sent only when the undo window
 * closes, or at once when the app quits (flush), so an undone delete never
 * reaches the server. A confirmed one is not dropped unsaid: each waiting
 * delete is written to a journal before the renderer hears it was taken, a
 * delete the app could not send (a crash, the OS ending it, the server away at
 * quit) is sent at the next start (resume), and one the server refuses while
 * a window can say so is reported (onRefused). No electron import.
 */
import { JsonFile } from './account/json-file.ts';
import { ServiceError } from './api/errors.ts';
import { realTimer } from './timer.ts';

export interface PendingDelete {
  /** `email:<id>`, `automation:<id>` or `all:<through>`: one waiting delete per item. */
  key: string;
  /** The account it was made in (the demo's key for the demo). */
  account: string;
  /** One email, one rule, or every email of the account that arrived by the time in `id` (the catcher's "delete all"). */
  kind: 'email' | 'automation' | 'all';
  id: string;
}

export interface PendingDeletesOptions {
  /** Where the journal lives; without one, waiting deletes live in memory only (tests of other things). */
  journalPath?: string;
  /** Sends one delete; throws a ServiceError when the server refuses or cannot be reached. */
  send: (entry: PendingDelete) => Promise<void>;
  /** A delete the server refused while the app runs: the item goes back on screen with the reason. */
  onRefused: (entry: PendingDelete, error: unknown) => void;
  /** A delete the server took (or found done already) while the app runs: the screen may stop holding it. */
  onSent?: (entry: PendingDelete) => void;
  setTimer?: (run: () => void, ms: number) => () => void;
}

/** The server may take it later: kept in the journal for the next try. Anything else is an answer. */
const mayTakeItLater = (error: unknown) => error instanceof ServiceError && ['network', 'timeout', 'rate-limited', 'server', 'cancelled'].includes(error.kind);
/** Already gone: what the delete wanted. */
const alreadyGone = (error: unknown) => error instanceof ServiceError && error.kind === 'not-found';

const isEntry = (value: unknown): value is PendingDelete => {
  const entry = value as PendingDelete;
  return typeof entry?.key === 'string' && typeof entry.account === 'string' && (entry.kind === 'email' || entry.kind === 'automation' || entry.kind === 'all') && typeof entry.id === 'string';
};

export class PendingDeletes {
  private readonly waiting = new Map<string, { entry: PendingDelete; stop: () => void }>();
  /** Sent, or failed in a way the server may take later: kept in the journal until the server answers. */
  private readonly unsent = new Map<string, PendingDelete>();
  private readonly journal: JsonFile<PendingDelete[]> | null;
  private readonly options: PendingDeletesOptions;
  private readonly setTimer: NonNullable<PendingDeletesOptions['setTimer']>;
  /** What the last run left in the journal, read once; every save waits for it, so nothing of it is written over. */
  private readonly leftOver: Promise<PendingDelete[]>;

  constructor(options: PendingDeletesOptions) {
    this.options = options;
    this.journal = options.journalPath ? new JsonFile(options.journalPath, (value) => (Array.isArray(value) ? value.filter(isEntry) : null)) : null;
    this.leftOver = (this.journal?.read() ?? Promise.resolve({ value: [] })).then(
      ({ value }) => {
        const entries = value ?? [];
        for (const entry of entries) this.unsent.set(entry.key, entry);
        return entries;
      },
      () => [],
    );
    this.setTimer = options.setTimer ?? realTimer;
  }

  /** Deletes inside their undo window: quitting sends them first. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  private async save(): Promise<void> {
    if (!this.journal) return;
    await this.leftOver;
    await this.journal.write([...this.waiting.values()].map((w) => w.entry).concat([...this.unsent.values()]));
  }

  /** Takes a delete: sent after `delayMs` unless undone first. Resolves once the journal holds it. */
  async schedule(entry: PendingDelete, delayMs: number): Promise<void> {
    this.waiting.get(entry.key)?.stop();
    const stop = this.setTimer(() => {
      if (this.waiting.get(entry.key)?.stop !== stop) return;
      this.waiting.delete(entry.key);
      void this.sendOne(entry, 'running');
    }, delayMs);
    this.waiting.set(entry.key, { entry, stop });
    await this.save();
  }

  /** Takes a waiting delete back: true when it had not been sent yet. */
  async cancel(key: string): Promise<boolean> {
    const waiting = this.waiting.get(key);
    if (!waiting) return false;
    waiting.stop();
    this.waiting.delete(key);
    await this.save();
    return true;
  }

  /**
   * Sends one delete. While the app runs, a refusal puts the item back on screen;
   * quitting, there is no screen: what the server may take later stays journaled.
   */
  private async sendOne(entry: PendingDelete, when: 'running' | 'quitting' | 'resuming'): Promise<void> {
    this.unsent.set(entry.key, entry);
    try {
      await this.options.send(entry);
      this.unsent.delete(entry.key);
      if (when === 'running') this.options.onSent?.(entry);
    } catch (error) {
      if (alreadyGone(error)) {
        this.unsent.delete(entry.key);
        if (when === 'running') this.options.onSent?.(entry);
      } else if (when === 'running' || !mayTakeItLater(error)) {
        this.unsent.delete(entry.key);
        if (when === 'running') this.options.onRefused(entry, error);
      }
    }
    await this.save().catch(() => undefined);
  }

  /** Sends every waiting delete now (quitting, switching account). */
  async flush(when: 'quitting' | 'running' = 'quitting'): Promise<void> {
    const entries = [...this.waiting.values()];
    this.waiting.clear();
    for (const { stop } of entries) stop();
    await Promise.all(entries.map(({ entry }) => this.sendOne(entry, when)));
  }

  /** At start: sends what the journal holds from a run that ended before it could. */
  async resume(): Promise<void> {
    const entries = await this.leftOver;
    await Promise.all(entries.filter((entry) => this.unsent.get(entry.key) === entry).map((entry) => this.sendOne(entry, 'resuming')));
  }
}
