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

/** The thread's state, shared: `stop` and the thread itself each move it on, never back. */
const STARTING = 0;
const OPEN = 1;
const STOPPED = 2;

/**
 * The checkpointing thread: plain CommonJS, so it needs no file of its own in any build.
 * It opens its connection only if the store has not stopped it first; on 'stop' it closes
 * the connection and says so, and the store waits for that.
 */
const CHECKPOINTER = `
const { workerData, parentPort } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const state = new Int32Array(workerData.state);
const stopped = () => { Atomics.store(state, 0, ${STOPPED}); Atomics.notify(state, 0); };
if (Atomics.compareExchange(state, 0, ${STARTING}, ${OPEN}) !== ${STARTING}) {
  parentPort.close();
} else {
  let db;
  try {
    db = new DatabaseSync(workerData.file, { timeout: 2000 });
  } catch (error) {
    stopped();
    throw error;
  }
  const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const pass = (asked) => {
    try {
      const { log, checkpointed } = passive.get();
      parentPort.postMessage({ asked, log, checkpointed });
    } catch (error) {
      // An I/O error: the thread ends, and a store that stops it is not kept waiting.
      stopped();
      throw error;
    }
  };
  const timer = setInterval(() => pass(0), workerData.intervalMs);
  parentPort.on('message', (message) => {
    if (message !== 'stop') return pass(message);
    clearInterval(timer);
    db.close();
    stopped();
    parentPort.close();
  });
}
`;

/** How long a store's close waits for the thread to close its connection (well under 1 ms, once it is open). */
const STOP_WAIT_MS = 5000;

export interface Checkpointer {
  /** A pass now, besides the timer's; its report carries `asked`. */
  passNow(asked: number): void;
  /**
   * Ends the thread, and returns once its connection is closed: the store closes its own
   * next, as the file's last connection, and SQLite copies the log in and removes it. A thread
   * cut off instead (terminate) left its connection to close on its own later, mid-pass even,
   * while the next store opened the same file: "database is locked", and once a crash.
   */
  stop(): void;
  /**
   * Settles once the thread has ended. A service in a thread of its own (This computer) waits
   * for it before it ends too: a thread whose parent ended while it was itself ending is torn
   * down by the parent's teardown, a race no one needs to run.
   */
  readonly exited: Promise<void>;
}

/** Starts the checkpointing thread for a database file; it holds no data: the smallest heap V8 allows. */
export function startCheckpointer(file: string, intervalMs: number, onPass: (pass: CheckpointPass) => void): Checkpointer {
  const state = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { file, intervalMs, state: state.buffer },
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  worker.on('message', onPass);
  // A thread that could not open the file: the store goes on without checkpoints (its log grows).
  worker.on('error', (error: Error) => console.error(`checkpoints stopped: ${error.message}`));
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    passNow: (asked) => worker.postMessage(asked),
    stop: () => {
      // Not open yet (a store closed soon after it opened): it never will be, so nothing is cut off.
      if (Atomics.compareExchange(state, 0, STARTING, STOPPED) === STARTING) return void worker.terminate();
      worker.postMessage('stop');
      // Synchronous, so close() stays so: the thread answers from its own event loop meanwhile.
      if (Atomics.wait(state, 0, OPEN, STOP_WAIT_MS) === 'timed-out') void worker.terminate();
      // Its connection closed, it ends by itself (nothing left in its loop); if not soon, it is ended.
      else setTimeout(() => void worker.terminate(), STOP_WAIT_MS).unref();
      // Held from here on, so that whoever awaits `exited` is told.
      worker.ref();
    },
    exited,
  };
}
