/**
 * The account main is talking to now: its client (made on first use: the
 * demo's service started, or the stored account's connection opened), calls
 * that land after a switch dropped, and deletes that wait for their undo
 * window. No electron: handlers.ts holds one.
 */
import type { EventName, Events, RateLimitState } from '../shared/contract.ts';
import type { AccountManager } from './account/accounts.ts';
import { ServiceClient, type Connection } from './api/client.ts';
import { ServiceError } from './api/errors.ts';
import type { HttpOptions } from './api/http.ts';
import { CATCHER_ID } from '../shared/domain/catcher.ts';
import { PendingDeletes, type PendingDelete } from './pending-deletes.ts';

const DEMO = 'demo';

export interface SessionDeps {
  accounts: AccountManager;
  startDemo: () => Promise<Connection>;
  /** "This computer": the catcher's connection, or why it has none (switched off, its port taken). */
  startCatcher?: () => Promise<Connection>;
  http?: Partial<HttpOptions>;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  /** The journal of deletes in their undo window (pending-deletes.ts); in memory without one. */
  pendingDeletesPath?: string;
  /** A delete the server refused: the item goes back on screen. */
  onDeleteRefused: (entry: PendingDelete, error: unknown) => void;
  /** A waiting delete the server took: the renderer stops holding its row. */
  onDeleteSent?: (entry: PendingDelete) => void;
  setTimer?: (run: () => void, ms: number) => () => void;
}

interface Open {
  key: string;
  client: ServiceClient;
  dispose: () => void;
}

export class AccountSession {
  private open: Open | null = null;
  private readonly pending: PendingDeletes;
  /** The tokens of the app's own services (the demo's, the catcher's), once started: secrets to keep out of messages. */
  readonly localTokens = new Set<string>();
  private readonly deps: SessionDeps;

  constructor(deps: SessionDeps) {
    this.deps = deps;
    this.pending = new PendingDeletes({
      journalPath: deps.pendingDeletesPath,
      send: (entry) => this.sendDelete(entry),
      onRefused: deps.onDeleteRefused,
      ...(deps.onDeleteSent ? { onSent: deps.onDeleteSent } : {}),
      setTimer: deps.setTimer,
    });
  }

  /** The open account is one of the app's own services (the demo, This computer): requests to it cost nothing. */
  get isLocal(): boolean {
    const key = this.open?.key ?? this.deps.accounts.activeId ?? DEMO;
    return key === DEMO || key === CATCHER_ID;
  }

  /** The account the open client belongs to (the demo's key for the demo), or null. */
  get activeKey(): string | null {
    return this.open?.key ?? null;
  }

  get rateLimit(): RateLimitState {
    return this.open?.client.rateLimit ?? { limit: null, remaining: null, blockedUntil: null };
  }

  private async current(): Promise<Open> {
    const { accounts } = this.deps;
    const key = accounts.activeId ?? DEMO;
    if (this.open?.key === key) return this.open;
    const connection = key === DEMO ? await this.deps.startDemo() : key === CATCHER_ID ? await this.catcherConnection() : accounts.connection(key);
    if (key === DEMO || key === CATCHER_ID) this.localTokens.add(connection.token ?? '');
    // The user switched while the demo (or This computer) was starting: the account shown now keeps its client and its requests.
    if ((accounts.activeId ?? DEMO) !== key) throw new ServiceError('cancelled', 'The account changed while this was loading; showing the new account.');
    // Another call for this account may have opened it first while the demo was starting.
    if (this.open?.key === key) return this.open;
    this.open?.dispose();
    const client = new ServiceClient(connection, this.deps.http);
    const stop = client.onRateLimit((state) => this.deps.emit('rateLimit', state));
    this.open = {
      key,
      client,
      dispose: () => {
        stop();
        client.abortAll();
      },
    };
    return this.open;
  }

  /** Runs a call on the current account; a result that lands after a switch is dropped. */
  async withClient<T>(run: (client: ServiceClient) => Promise<T>): Promise<T> {
    const started = await this.current();
    const result = await run(started.client);
    if (this.open !== started) {
      throw new ServiceError('cancelled', 'The account changed while this was loading; showing the new account.');
    }
    return result;
  }

  /** Closes the client (switching accounts, saving the active one anew, quitting). */
  end(): void {
    this.open?.dispose();
    this.open = null;
  }

  /**
   * A delete with an undo window: at once without one, else sent when the
   * window closes (or on quit, or at the next start if the app ended first).
   * Resolves once the delete is journaled.
   */
  async deleteSoon(kind: PendingDelete['kind'], id: string, undoMs: number | undefined): Promise<null> {
    if (!undoMs) {
      await this.withClient((client) => sendTo(client, kind, id));
      return null;
    }
    const started = await this.current();
    await this.pending.schedule({ key: deleteKey(kind, id), account: started.key, kind, id }, undoMs);
    return null;
  }

  private catcherConnection(): Promise<Connection> {
    if (!this.deps.startCatcher) throw new ServiceError('server', 'This build has no catcher.');
    return this.deps.startCatcher();
  }

  /** Takes a waiting delete back: true when it had not been sent yet. */
  undo(kind: PendingDelete['kind'], id: string): Promise<boolean> {
    return this.pending.cancel(deleteKey(kind, id));
  }

  /** Deletes inside their undo window. */
  get waitingDeletes(): number {
    return this.pending.waitingCount;
  }

  /** Sends every delete still waiting for its undo window: quitting, or before another account opens. */
  flush(when: 'quitting' | 'running' = 'quitting'): Promise<void> {
    return this.pending.flush(when);
  }

  /** At start: the deletes a previous run took but could not send. */
  resumeDeletes(): Promise<void> {
    return this.pending.resume();
  }

  /** Through the open client when the delete is the open account's, else a client of its own for the one call. */
  private async sendDelete(entry: PendingDelete): Promise<void> {
    if (this.open?.key === entry.account) return sendTo(this.open.client, entry.kind, entry.id);
    // The demo's mail does not outlive its run, and a removed account has nowhere to send to.
    if (entry.account === DEMO) return;
    if (entry.account !== CATCHER_ID && !this.deps.accounts.summaries().some((a) => a.id === entry.account)) return;
    const connection = entry.account === CATCHER_ID ? await this.catcherConnection() : this.deps.accounts.connection(entry.account);
    const client = new ServiceClient(connection, this.deps.http);
    try {
      await sendTo(client, entry.kind, entry.id);
    } finally {
      client.abortAll();
    }
  }
}

const deleteKey = (kind: PendingDelete['kind'], id: string) => `${kind}:${id}`;
const sendTo = (client: ServiceClient, kind: PendingDelete['kind'], id: string) =>
  kind === 'email' ? client.deleteEmail(id) : kind === 'automation' ? client.deleteAutomation(id) : client.deleteAllEmails(id);
