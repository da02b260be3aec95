import { Worker } from 'node:worker_threads';
import type { Connection } from './api/client.ts';
import { ServiceError } from './api/errors.ts';

export interface DemoStarter {
  /** Starts the service once; later calls answer the same connection. */
  start: () => Promise<Connection>;
  stop: () => Promise<void>;
  /** The worker thread the service runs on, once started. */
  threadId: () => number | null;
  /** Its SMTP port, when started with `smtp` (tests). */
  smtpPort: () => number | null;
}

interface Ready {
  type: 'ready';
  baseUrl: string;
  teamId: string;
  token: string;
  threadId: number;
  smtpPort: number | null;
}

/**
 * Demo mode: with no account configured, the bundled reference service runs
 * in a worker thread (demo-worker.ts) on a random loopback port, with the demo
 * corpus and a fresh token. `workerPath` is the built worker in Electron, the
 * TypeScript source under Node in tests.
 */
export function demoStarter(resourcesDir: string, workerPath: string | URL, options: { smtp?: boolean } = {}): DemoStarter {
  let worker: Worker | null = null;
  let smtpPort: number | null = null;
  let ready: Promise<Ready> | null = null;
  let started = false;
  let thread: number | null = null;
  return {
    start: async () => {
      ready ??= new Promise<Ready>((resolve, reject) => {
        const spawned = new Worker(workerPath, { workerData: { resourcesDir, smtp: options.smtp === true } });
        worker = spawned;
        spawned.once('message', (message: Ready) => {
          started = true;
          resolve(message);
        });
        spawned.once('error', (error: unknown) => reject(new ServiceError('server', `The demo service could not start: ${error instanceof Error ? error.message : String(error)}`)));
        spawned.once('exit', () => reject(new ServiceError('network', 'The demo service was closed.')));
      });
      try {
        const { baseUrl, teamId, token, threadId, smtpPort: port } = await ready;
        thread = threadId;
        smtpPort = port;
        return { baseUrl, teamId, token };
      } catch (error) {
        ready = null;
        throw error;
      }
    },
    stop: async () => {
      const running = worker;
      if (!running) return;
      worker = null;
      ready = null;
      thread = null;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      if (!started) {
        // Still starting: nothing to close gracefully.
        await running.terminate();
        return;
      }
      started = false;
      running.postMessage('stop');
      // A service that does not close in time is ended.
      const timer = setTimeout(() => void running.terminate(), 3000);
      await exited;
      clearTimeout(timer);
    },
    threadId: () => thread,
    smtpPort: () => smtpPort,
  };
}
