/**
 * Checkpoints (copying the write-ahead log into the database, with an fsync)
 * on a connection of their own in another thread, never inside a commit of
 * the store's.
 */
import { Worker } from 'node:worker_threads';

/** The checkpointing thread: plain CommonJS, so it needs no file of its own in any build. */
const CHECKPOINTER = `
const { workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.file);
db.exec('PRAGMA busy_timeout = 2000');
setInterval(() => db.exec('PRAGMA wal_checkpoint(PASSIVE)'), 1000);
`;


/** Starts the checkpointing thread for a database file; it holds no data: the smallest heap V8 allows. */
export function startCheckpointer(file: string): Worker {
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { file }, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } });
  worker.unref();
  return worker;
}
