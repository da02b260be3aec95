/**
 * A reference service of the app's own, in a worker thread
 * (local-service-worker.ts): the demo, or the catcher ("This computer").
 * Started once, asked for its connection, told to stop; it says when mail
 * arrives, so the app shows it at once instead of at the next poll.
 */
import { Worker } from 'node:worker_threads';
import type { SmtpAuth } from '../server/smtp.ts';
import type { Retention } from '../server/service.ts';
import type { ChaosSettings } from '../shared/domain/chaos.ts';
import type { RelayConfig } from '../shared/domain/relay.ts';
import type { ReleaseAnswer } from '../server/relay.ts';
import type { Connection } from './api/client.ts';
import { ServiceError } from './api/errors.ts';

export interface LocalServiceConfig {
  teamId: string;
  /** The demo's corpus (in memory, fresh each start). */
  seedDir?: string;
  /** The catcher's folder: its mail survives restarts, and so does its certificate. */
  dataDir?: string;
  smtp?: { host: string; port: number; tlsPort: number | null; auth: SmtpAuth; requireAuth: boolean; maxRecipients?: number };
  retention?: Retention;
  /** The catcher's API for tests and agents on a fixed address too (its token kept in dataDir). */
  api?: { host: string; port: number };
  /** Chaos it starts with (a pinned one: otherwise a start is without). */
  chaos?: ChaosSettings;
  /** The relay Release sends through: only one the user consented to (main decides). */
  relay?: RelayConfig | null;
  /** SpamAssassin's spamd (Settings), for its API's Mailpit sa-check. */
  spamd?: string | null;
}

/** Where the API for tests and agents answers, or why it does not (one sentence). */
export type PublicApi = { url: string } | { error: string } | null;

export type LocalServiceMessage =
  | { type: 'ready'; baseUrl: string; teamId: string; token: string; threadId: number; smtp: { host: string; port: number; tlsPort: number | null } | null; api: PublicApi }
  | { type: 'failed'; code: string | null; port: number | null; message: string }
  | { type: 'arrived'; teamId: string; ids: string[] }
  | { type: 'chaos'; settings: ChaosSettings }
  | { type: 'released'; ref: number; answer: ReleaseAnswer | null };

export interface LocalService {
  /** Starts the service once; later calls answer the same connection. */
  start: () => Promise<Connection>;
  stop: () => Promise<void>;
  /** Where its SMTP listens, once it does. */
  smtp: () => { host: string; port: number; tlsPort: number | null } | null;
  /** Each arrival's email ids, as soon as they are stored; answers how to stop listening. */
  onArrival: (listener: (ids: string[]) => void) => () => void;
  /** The worker thread the service runs on, once started. */
  threadId: () => number | null;
  /** Where its API for tests and agents answers, once started. */
  api: () => PublicApi;
  /** Sets its chaos (the SMTP answering no on purpose). */
  setChaos: (settings: ChaosSettings) => void;
  /** Its chaos whenever it changes, from here or from its API (a "next N" counting down too). */
  onChaos: (listener: (settings: ChaosSettings) => void) => () => void;
  /** Sets the relay Release sends through (its API's too); null: release is off. */
  setRelay: (config: RelayConfig | null) => void;
  /** Sets the spamd its API's sa-check asks; null: that check is off. */
  setSpamd: (address: string | null) => void;
  /** Sends a caught email on through the relay; null when the email is not there. */
  release: (emailId: string, to: string[]) => Promise<ReleaseAnswer | null>;
}

/** A start that failed, in one sentence a user can act on. */
function startFailure(message: Extract<LocalServiceMessage, { type: 'failed' }>, what: string, config: LocalServiceConfig): ServiceError {
  const smtp = config.smtp;
  if (message.code === 'EADDRINUSE' && smtp) {
    return new ServiceError('server', `Port ${message.port ?? smtp.port} on ${smtp.host} is in use by another program (another catcher such as Mailpit or MailHog?): choose another port for ${what} in Settings.`);
  }
  if (message.code === 'EACCES' && smtp) return new ServiceError('server', `Port ${message.port ?? smtp.port} needs more rights than this user has: choose one above 1023 for ${what} in Settings.`);
  if ((message.code === 'EADDRNOTAVAIL' || message.code === 'ENOTFOUND') && smtp) return new ServiceError('server', `${smtp.host} is not an address of this computer: choose another interface for ${what} in Settings.`);
  return new ServiceError('server', `${what} could not start: ${message.message}`);
}

/** `what` names it in messages ("The demo service", "This computer"). */
export function localService(workerPath: string | URL, config: LocalServiceConfig, what: string): LocalService {
  let worker: Worker | null = null;
  let ready: Promise<Extract<LocalServiceMessage, { type: 'ready' }>> | null = null;
  let started: Extract<LocalServiceMessage, { type: 'ready' }> | null = null;
  const listeners = new Set<(ids: string[]) => void>();
  const chaosListeners = new Set<(settings: ChaosSettings) => void>();
  const releases = new Map<number, (answer: ReleaseAnswer | null) => void>();
  let nextRelease = 0;
  return {
    start: async () => {
      ready ??= new Promise((resolve, reject) => {
        const spawned = new Worker(workerPath, { workerData: config });
        worker = spawned;
        spawned.on('message', (message: LocalServiceMessage) => {
          if (message.type === 'ready') {
            started = message;
            resolve(message);
          } else if (message.type === 'failed') reject(startFailure(message, what, config));
          else if (message.type === 'chaos') for (const listener of chaosListeners) listener(message.settings);
          else if (message.type === 'released') {
            releases.get(message.ref)?.(message.answer);
            releases.delete(message.ref);
          }
          else for (const listener of listeners) listener(message.ids);
        });
        spawned.once('error', (error: unknown) => reject(new ServiceError('server', `${what} could not start: ${error instanceof Error ? error.message : String(error)}`)));
        spawned.once('exit', () => {
          reject(new ServiceError('network', `${what} was closed.`));
          for (const settle of releases.values()) settle({ ok: false, status: 502, message: `${what} was closed before the relay answered: nothing is known to be sent.` });
          releases.clear();
        });
      });
      try {
        const { baseUrl, teamId, token } = await ready;
        return { baseUrl, teamId, token };
      } catch (error) {
        ready = null;
        worker = null;
        throw error;
      }
    },
    stop: async () => {
      const running = worker;
      if (!running) return;
      worker = null;
      ready = null;
      const wasStarted = started !== null;
      started = null;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      // Still starting, it closes once started (local-service-worker.ts): its store is never cut off mid-open.
      running.postMessage('stop');
      // A service that does not close in time is ended.
      const timer = setTimeout(() => void running.terminate(), wasStarted ? 3000 : 10_000);
      await exited;
      clearTimeout(timer);
    },
    smtp: () => started?.smtp ?? null,
    onArrival: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    threadId: () => started?.threadId ?? null,
    api: () => started?.api ?? null,
    setChaos: (settings) => worker?.postMessage({ chaos: settings }),
    setRelay: (relay) => {
      config.relay = relay;
      worker?.postMessage({ relay });
    },
    setSpamd: (spamd) => {
      config.spamd = spamd;
      worker?.postMessage({ spamd });
    },
    release: async (emailId, to) => {
      if (!worker || !started) throw new ServiceError('network', `${what} is not running: start it in Settings, then send again.`);
      const ref = nextRelease++;
      const answered = new Promise<ReleaseAnswer | null>((resolve) => releases.set(ref, resolve));
      worker.postMessage({ release: { ref, emailId, to } });
      return answered;
    },
    onChaos: (listener) => {
      chaosListeners.add(listener);
      return () => chaosListeners.delete(listener);
    },
  };
}

/** The demo: the corpus in memory, a fresh token, loopback only; SMTP only where a test asks. */
export function demoService(resourcesDir: string, workerPath: string | URL, options: { smtp?: boolean } = {}): LocalService {
  return localService(
    workerPath,
    {
      teamId: 'demo',
      seedDir: `${resourcesDir}/demo/mail`,
      ...(options.smtp ? { smtp: { host: '127.0.0.1', port: 0, tlsPort: null, auth: 'any' as const, requireAuth: false } } : {}),
    },
    'The demo service',
  );
}
