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
import { DeferredActions } from './deferred.ts';

const DEMO = 'demo';

export interface SessionDeps {
  accounts: AccountManager;
  startDemo: () => Promise<Connection>;
  http?: Partial<HttpOptions>;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
}

interface Open {
  key: string;
  client: ServiceClient;
  dispose: () => void;
}

export class AccountSession {
  private open: Open | null = null;
  private readonly deferred = new DeferredActions();
  /** The demo's token, once started: a secret to keep out of messages. */
  demoToken: string | null = null;
  private readonly deps: SessionDeps;

  constructor(deps: SessionDeps) {
    this.deps = deps;
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
    const connection = key === DEMO ? await this.deps.startDemo() : accounts.connection(key);
    if (key === DEMO) this.demoToken = connection.token;
    // Another call may have switched first while the demo was starting.
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
   * window closes (or on quit). A failure then puts the item back on screen.
   */
  async deleteSoon(
    key: string,
    undoMs: number | undefined,
    run: (client: ServiceClient) => Promise<void>,
    failed: (error: unknown) => void,
  ): Promise<null> {
    if (!undoMs) {
      await this.withClient(run);
      return null;
    }
    const started = await this.current();
    this.deferred.schedule(key, undoMs, async () => {
      try {
        await run(started.client);
      } catch (error) {
        failed(error);
      }
    });
    return null;
  }

  /** Takes a waiting delete back: true when it had not been sent yet. */
  undo(key: string): boolean {
    return this.deferred.cancel(key);
  }

  /** Sends every delete still waiting for its undo window. */
  flush(): Promise<void> {
    return this.deferred.flush();
  }
}
