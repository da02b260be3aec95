/**
 * Checkpoints (copying the write-ahead log into the database, with an fsync)
 * on a connection of their own in another thread, never inside a commit of
 * the store's. Each pass reports how much of the log it copied: the store
 * needs to know, because a log copied while its writer keeps appending is
 * never copied whole, and SQLite starts a log over only once it was.
 */
import { Worker } from 'node:worker_threads';

/**
 * What a pass found: frames in the log and how many of them it copied, as the log stood
 * when the pass began (the writer may have appended more since). `asked` is the number
 * passNow was given, 0 for the timer's passes.
 */
export interface CheckpointPass {
  asked: number;
  log: number;
  checkpointed: number;
}

/** The checkpointing thread: plain CommonJS, so it needs no file of its own in any build. */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 2000');
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const pass = (asked) => {
  const { log, checkpointed } = passive.get();
  parentPort.postMessage({ asked, log, checkpointed });
};
setInterval(() => pass(0), workerData.intervalMs);
parentPort.on('message', pass);
`;

export interface Checkpointer {
  /** A pass now, besides the timer's; its report carries `asked`. */
  passNow(asked: number): void;
  stop(): void;
}

/** Starts the checkpointing thread for a database file; it holds no data: the smallest heap V8 allows. */
export function startCheckpointer(file: string, intervalMs: number, onPass: (pass: CheckpointPass) => void): Checkpointer {
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { file, intervalMs }, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } });
  worker.on('message', onPass);
  worker.unref();
  return { passNow: (asked) => worker.postMessage(asked), stop: () => void worker.terminate() };
}
