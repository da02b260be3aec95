/**
 * "This computer" in main: the catcher's reference service, run in a worker
 * (local-service.ts) with its data folder under userData, started at launch
 * while it is on, and started again when its settings change. Its state is
 * what the Settings view and the switcher show; its arrivals make the list,
 * the badge and the notification follow at once. No electron import.
 */
import { join } from 'node:path';
import type { CatcherSettings, CatcherState } from '../shared/domain/catcher.ts';
import { CHAOS_OFF, type ChaosSettings } from '../shared/domain/chaos.ts';
import type { RelayConfig } from '../shared/domain/relay.ts';
import type { ReleaseAnswer } from '../server/relay.ts';
import type { Connection } from './api/client.ts';
import { ServiceError } from './api/errors.ts';
import { localService, type LocalService, type LocalServiceConfig } from './local-service.ts';

export interface CatcherOptions {
  workerPath: string | URL;
  /** Its own folder: the mail (SQLite), and the certificate made once for STARTTLS. */
  dataDir: string;
  /** The wait before start attempt `n` (1, 2, …) after a failed one: 2 s doubling to a minute (tests shorten it). */
  retryDelayMs?: (attempt: number) => number;
}

const retryDelay = (attempt: number) => Math.min(60_000, 2000 * 2 ** Math.max(0, attempt - 1));

/** What the worker is started with: the settings that change how it listens or keeps mail. */
function serviceConfig(settings: CatcherSettings, password: string | null, dataDir: string): LocalServiceConfig {
  const auth = settings.auth === 'any' || settings.auth === 'off' ? settings.auth : { user: settings.auth.user, password: password ?? '' };
  return {
    teamId: 'this-computer',
    dataDir: join(dataDir, 'mail'),
    smtp: { host: settings.host, port: settings.port, tlsPort: settings.tlsPort, auth, requireAuth: settings.requireAuth, maxRecipients: settings.maxRecipients },
    // Loopback only: a test suite on this computer reaches it, nothing else does.
    ...(settings.apiPort !== null ? { api: { host: '127.0.0.1', port: settings.apiPort } } : {}),
    retention: { ...(settings.keep !== null ? { keep: settings.keep } : {}), ...(settings.keepDays !== null ? { days: settings.keepDays } : {}) },
  };
}

export class Catcher {
  private readonly options: CatcherOptions;
  private service: LocalService | null = null;
  private configKey = '';
  private current: CatcherState;
  private stopArrivals: (() => void) | null = null;
  /** The API's token, held here for copyCatcherToken: never in the state the renderer sees. */
  private token: string | null = null;
  /** What it was last told to run, for a start that failed to be tried again (a port freed meanwhile). */
  private last: { settings: CatcherSettings; password: string | null; hasPassword: boolean } | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  /** The relay Release sends through, once the user consented to it (main's dialog); null: none. */
  private relay: RelayConfig | null = null;
  /** SpamAssassin's spamd (Settings), for its API's sa-check; null: none. */
  private spamd: string | null = null;
  private readonly changeListeners = new Set<(state: CatcherState) => void>();
  private readonly arrivalListeners = new Set<(ids: string[]) => void>();

  /** Its state whenever it changes (starting, listening, failed, new settings). */
  onChange(listener: (state: CatcherState) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Each arrival's email ids, as soon as they are stored. */
  onArrival(listener: (ids: string[]) => void): () => void {
    this.arrivalListeners.add(listener);
    return () => this.arrivalListeners.delete(listener);
  }

  /** `chaos`: the pinned one it starts with; none otherwise. */
  constructor(options: CatcherOptions, settings: CatcherSettings, hasPassword: boolean, chaos: ChaosSettings | null = null) {
    this.options = options;
    this.current = { settings, status: 'off', smtp: null, error: null, hasPassword, chaos: chaos ?? CHAOS_OFF };
  }

  /** Sets what its SMTP answers "no" with: at once, without a restart. */
  setChaos(chaos: ChaosSettings): void {
    this.service?.setChaos(chaos);
    this.set({ chaos });
  }

  /** The relay its Release (and its API's) sends through: at once, without a restart. */
  setRelay(relay: RelayConfig | null): void {
    this.relay = relay;
    this.service?.setRelay(relay);
  }

  /** The spamd its API's Mailpit sa-check asks (the app's own spam score's): at once, without a restart. */
  setSpamd(address: string | null): void {
    this.spamd = address || null;
    this.service?.setSpamd(this.spamd);
  }

  /** Sends a caught email on through the relay; null when the email is not there. */
  async release(emailId: string, to: string[]): Promise<ReleaseAnswer | null> {
    if (!this.service) throw new ServiceError('server', this.current.error ?? 'This computer is switched off: turn it on in Settings first.');
    return this.service.release(emailId, to);
  }

  get state(): CatcherState {
    return this.current;
  }

  private set(patch: Partial<CatcherState>): void {
    this.current = { ...this.current, ...patch };
    for (const listener of this.changeListeners) listener(this.current);
  }

  /**
   * Takes new settings: a catcher switched on starts (or starts again where it
   * must listen or keep mail differently); one switched off stops.
   */
  async apply(settings: CatcherSettings, password: string | null, hasPassword: boolean): Promise<void> {
    this.last = { settings, password, hasPassword };
    this.clearRetry();
    const config = serviceConfig(settings, password, this.options.dataDir);
    const key = settings.enabled ? JSON.stringify(config) : '';
    this.current = { ...this.current, settings, hasPassword };
    if (key === this.configKey && (this.service !== null) === settings.enabled) {
      this.set({});
      return;
    }
    await this.stop();
    this.configKey = key;
    if (!settings.enabled) {
      this.set({ status: 'off', smtp: null, error: null, api: null });
      return;
    }
    // Chaos, the relay and spamd go along, but never into the key: changing them restarts nothing.
    const service = localService(this.options.workerPath, { ...config, chaos: this.current.chaos ?? CHAOS_OFF, relay: this.relay, spamd: this.spamd }, 'This computer');
    this.service = service;
    this.set({ status: 'starting', smtp: null, error: null, api: null });
    try {
      const connection = await service.start();
      if (this.service !== service) return;
      this.token = settings.apiPort !== null ? connection.token : null;
      const stopChaos = service.onChaos((chaos) => this.set({ chaos }));
      const stopArrivals = service.onArrival((ids) => {
        for (const listener of this.arrivalListeners) listener(ids);
      });
      this.stopArrivals = () => {
        stopChaos();
        stopArrivals();
      };
      this.attempt = 0;
      this.set({ status: 'listening', smtp: service.smtp(), error: null, api: service.api(), retryAt: null });
    } catch (error) {
      if (this.service !== service) return;
      this.service = null;
      // Tried again by itself, sooner and sooner no more: a port another program held may be free by then.
      const delay = (this.options.retryDelayMs ?? retryDelay)(++this.attempt);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        void this.retry();
      }, delay);
      this.retryTimer.unref?.();
      this.set({ status: 'failed', smtp: null, error: error instanceof Error ? error.message : String(error), api: null, retryAt: Date.now() + delay });
    }
  }

  /** Starts again as last told (a failed start, tried again); nothing when it runs or is off. */
  private async retry(): Promise<void> {
    if (!this.last || this.service !== null || !this.last.settings.enabled) return;
    const { settings, password, hasPassword } = this.last;
    await this.apply(settings, password, hasPassword);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** How the client reaches it: it runs (on), or the reason it does not. */
  async connection(): Promise<Connection> {
    // Failed before: asked now (the list's own retry, Try now), it is tried again at once.
    if (!this.service && this.current.status === 'failed') await this.retry();
    if (!this.service) {
      throw new ServiceError('server', this.current.error ?? 'This computer is switched off: turn it on in Settings to catch your app’s mail.');
    }
    // A tester sees what their app sent: one message, however many recipients.
    return { ...(await this.service.start()), byDelivery: true };
  }

  /** The token a test suite puts in its Authorization header, while the API answers. */
  apiToken(): string | null {
    return this.current.api && 'url' in this.current.api ? this.token : null;
  }

  async stop(): Promise<void> {
    this.clearRetry();
    this.token = null;
    this.stopArrivals?.();
    this.stopArrivals = null;
    const service = this.service;
    this.service = null;
    await service?.stop();
  }
}
