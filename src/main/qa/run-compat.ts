/** Runs one compatibility check in a worker thread (compat-worker.ts), ended after a time limit. */
import { Worker } from 'node:worker_threads';
import type { CompatReport } from '../../shared/contract.ts';
import { ServiceError } from '../api/errors.ts';

export const COMPAT_TIMEOUT_MS = 30_000;

export const COMPAT_MEMORY_MB = 512;

export function runCompat(workerPath: string | URL, html: string, timeoutMs = COMPAT_TIMEOUT_MS, memoryMb = COMPAT_MEMORY_MB): Promise<CompatReport> {
  return new Promise((resolve, reject) => {
    // A hostile email may cost the check its time (30 s) or its memory (512 MB), never main's.
    const worker = new Worker(workerPath, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new ServiceError('timeout', `The compatibility check took longer than ${timeoutMs / 1000} s and was stopped.`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once('message', (answer: { ok: true; report: CompatReport } | { ok: false; message: string }) => {
      done();
      if (answer.ok) resolve(answer.report);
      else reject(new ServiceError('bad-response', `The compatibility check could not read this HTML: ${answer.message}`));
    });
    worker.once('error', (error: Error) => {
      done();
      reject(new ServiceError('bad-response', `The compatibility check failed: ${error.message}`));
    });
    worker.postMessage(html);
  });
}
