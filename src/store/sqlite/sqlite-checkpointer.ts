import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The checkpoint a worker thread runs when asked. Plain CommonJS evaluated by the worker, so it is
 * the same under the compiled build and under tsx; better-sqlite3 is loaded from the path the main
 * thread resolved, so the worker finds the same module from any working directory.
 *
 * The worker's connection keeps SQLite's default `synchronous = FULL`: a checkpoint fsyncs the WAL
 * before copying its frames into the database and the database before it records them as copied, so
 * a WAL that a writer later starts over from the beginning holds nothing the database file lacks.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('wal_autocheckpoint = 0');
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const row = passive.get();
    parentPort.postMessage({ ok: true, busy: row.busy, log: row.log, checkpointed: row.checkpointed });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: String(err && err.message) });
  }
});
`;

/** What one checkpoint did: frames in the WAL and frames copied into the database (both -1 when the database is not in WAL mode). */
export interface CheckpointResult {
  ok: boolean;
  log?: number;
  checkpointed?: number;
  error?: string;
}

/**
 * Runs SQLite's WAL checkpoints on a worker thread with its own connection, so the serving thread
 * never copies pages into the database file nor waits for that file's fsync. SQLite's automatic
 * checkpoint runs inside the COMMIT that crosses `wal_autocheckpoint` pages: on the event loop, two
 * fsyncs and every page the WAL changed, milliseconds during which no request moved.
 */
export class SqliteCheckpointer {
  /** Started at the first checkpoint: a short-lived store (a CLI command) never starts a thread. */
  private worker?: Worker;
  private done?: (result: CheckpointResult) => void;
  /** Closed, or the thread ended on its own (it could not open the database): no more checkpoints here. */
  private ended = false;
  /** Resolves once the thread has exited. */
  private exited?: Promise<void>;

  constructor(private readonly path: string) {}

  /** True while a checkpoint runs. */
  get running(): boolean {
    return this.done !== undefined;
  }

  /** False once the thread has ended: the caller checkpoints some other way. */
  get usable(): boolean {
    return !this.ended;
  }

  /** Starts a checkpoint; `done` is called once with its outcome. Only when `usable` and not `running`. */
  run(done: (result: CheckpointResult) => void): void {
    if (this.ended || this.done) throw new Error('a checkpoint is already running or the checkpointer has ended');
    this.done = done;
    this.worker ??= this.start();
    // Writes wait for the checkpoint: the process must not end while it runs (see start).
    this.worker.ref();
    this.worker.postMessage('checkpoint');
  }

  /** Closes the worker's connection (after the checkpoint running, if any) and ends the thread. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.ended = true;
    if (!worker) return;
    // Kept referenced until it exits: the process waits for the connection to close.
    worker.ref();
    worker.postMessage('close');
    await this.exited;
  }

  private start(): Worker {
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, path: this.path } });
    // An idle checkpointer must not keep the process alive (`close` ends it); one at work does.
    worker.unref();
    worker.on('message', (result: CheckpointResult) => this.settle(result));
    worker.on('error', (err) => this.settle({ ok: false, error: err.message }));
    this.exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.on('exit', () => {
      this.ended = true;
      this.settle({ ok: false, error: 'the checkpoint thread ended' });
    });
    return worker;
  }

  private settle(result: CheckpointResult): void {
    // Idle again: no longer a reason to keep the process alive, unless it is closing.
    if (!this.ended) this.worker?.unref();
    const done = this.done;
    this.done = undefined;
    done?.(result);
  }
}
