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
import type { Connection } from './api/client.ts';
import { ServiceError } from './api/errors.ts';
import { localService, type LocalService, type LocalServiceConfig } from './local-service.ts';

export interface CatcherOptions {
  workerPath: string | URL;
  /** Its own folder: the mail (SQLite), and the certificate made once for STARTTLS. */
  dataDir: string;
}

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
    // Chaos goes along, but never into the key: changing it restarts nothing.
    const service = localService(this.options.workerPath, { ...config, chaos: this.current.chaos ?? CHAOS_OFF }, 'This computer');
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
      this.set({ status: 'listening', smtp: service.smtp(), error: null, api: service.api() });
    } catch (error) {
      if (this.service !== service) return;
      this.service = null;
      this.set({ status: 'failed', smtp: null, error: error instanceof Error ? error.message : String(error), api: null });
    }
  }

  /** How the client reaches it: it runs (on), or the reason it does not. */
  async connection(): Promise<Connection> {
    if (!this.service) {
      throw new ServiceError('server', this.current.error ?? 'This computer is switched off: turn it on in Settings to catch your app’s mail.');
    }
    return this.service.start();
  }

  /** The token a test suite puts in its Authorization header, while the API answers. */
  apiToken(): string | null {
    return this.current.api && 'url' in this.current.api ? this.token : null;
  }

  async stop(): Promise<void> {
    this.token = null;
    this.stopArrivals?.();
    this.stopArrivals = null;
    const service = this.service;
    this.service = null;
    await service?.stop();
  }
}
