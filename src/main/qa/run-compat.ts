/**
 * Runs compatibility checks in a worker thread (compat-worker.ts) kept warm
 * between checks: caniemail and its data load once, not at every H. One check
 * at a time; one that runs past its time limit, or past its memory, ends the
 * worker, and the next check starts a fresh one.
 */
import { Worker } from 'node:worker_threads';
import type { CompatReport } from '../../shared/contract.ts';
import { ServiceError } from '../api/errors.ts';

export const COMPAT_TIMEOUT_MS = 30_000;

export const COMPAT_MEMORY_MB = 512;

type Answer = { ok: true; report: CompatReport } | { ok: false; message: string };

class WarmWorker {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly path: string | URL;
  private readonly memoryMb: number;

  constructor(path: string | URL, memoryMb: number) {
    this.path = path;
    this.memoryMb = memoryMb;
  }

  check(html: string, timeoutMs: number): Promise<CompatReport> {
    const run = this.queue.then(() => this.once(html, timeoutMs));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private once(html: string, timeoutMs: number): Promise<CompatReport> {
    // A hostile email may cost the check its time (30 s) or its memory (512 MB), never main's.
    if (this.worker === null) {
      this.worker = new Worker(this.path, { resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } });
      workersStarted += 1;
    }
    const worker = this.worker;
    // A warm worker waiting for the next check keeps no process alive (tests, quitting).
    worker.unref();
    return new Promise((resolve, reject) => {
      const end = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const discard = () => {
        if (this.worker === worker) this.worker = null;
        void worker.terminate();
      };
      const timer = setTimeout(() => {
        end();
        discard();
        reject(new ServiceError('timeout', `The compatibility check took longer than ${timeoutMs / 1000} s and was stopped.`));
      }, timeoutMs);
      const onMessage = (answer: Answer) => {
        end();
        if (answer.ok) resolve(answer.report);
        else reject(new ServiceError('bad-response', `The compatibility check could not read this HTML: ${answer.message}`));
      };
      const onError = (error: Error) => {
        end();
        discard();
        reject(new ServiceError('bad-response', `The compatibility check failed: ${error.message}`));
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.ref();
      worker.postMessage(html);
    }).finally(() => worker.unref()) as Promise<CompatReport>;
  }
}

const warm = new Map<string, WarmWorker>();
let workersStarted = 0;

/** How many check workers this process started (a warm one is reused: tests read this). */
export const compatWorkersStarted = (): number => workersStarted;

export function runCompat(workerPath: string | URL, html: string, timeoutMs = COMPAT_TIMEOUT_MS, memoryMb = COMPAT_MEMORY_MB): Promise<CompatReport> {
  const key = `${String(workerPath)}|${memoryMb}`;
  let worker = warm.get(key);
  if (!worker) warm.set(key, (worker = new WarmWorker(workerPath, memoryMb)));
  return worker.check(html, timeoutMs);
}
