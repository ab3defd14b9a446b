import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { fullOr, isBusy, lockedOut } from './sqlite-errors.js';

/**
 * How long queued writes wait for another process (`serve --workers N`, or any other program) to
 * release the database's write lock before they fail with 503. Workers hold it for one batch,
 * milliseconds; a lock held longer than this is not a batch.
 */
const LOCK_PATIENCE_MS = 1000;

interface Job {
  work: () => unknown;
  resolve: (value: any) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for SQLite in WAL mode. Every job queued during one turn of the event loop runs
 * in one transaction, each inside its own savepoint so one job's failure rolls back only that
 * job. SQLite commits with `synchronous=NORMAL` (the frames reach the WAL file, no fsync), then
 * the WAL is fsynced on libuv's thread pool and only then are the jobs' promises settled: a
 * caller never acknowledges a write that is not on disk, and the event loop never blocks on the
 * disk, so batches grow with the load while an fsync is in flight (one fsync for many writes).
 *
 * The connection has no busy timeout (SQLite would spin inside the event loop while another
 * process holds the write lock): a batch that finds the lock taken stays queued and is tried
 * again on a timer, and fails with StoreUnavailableError (503) once the lock has been held for
 * longer than LOCK_PATIENCE_MS. A failed BEGIN has written nothing.
 */
export class SqliteGroupCommit {
  private queue: Job[] = [];
  private scheduled = false;
  private readonly wal?: WalSyncer;
  /** When the batch now waiting first found the write lock taken, and how often it has tried since. */
  private locked?: { since: number; tries: number };
  /** Transactions this connection has ended (committed or rolled back): reads cached before one may be stale. */
  commits = 0;
  /** Told each committed batch's size (metrics); empty unless someone observes. */
  private readonly batchListeners = new Set<(size: number) => void>();

  /** Each job's savepoint, prepared once: `exec` would parse the SQL again for every write. */
  private readonly savepoint: { begin: Statement; release: Statement; rollback: Statement };

  /** The database's directory, where a failed write may have found no space; absent in memory. */
  private readonly dir?: string;

  constructor(private readonly db: Database, walPath?: string) {
    if (walPath) this.wal = new WalSyncer(walPath);
    this.dir = walPath && dirname(walPath);
    this.savepoint = { begin: db.prepare('SAVEPOINT job'), release: db.prepare('RELEASE job'), rollback: db.prepare('ROLLBACK TO job') };
  }

  /** Queues `work` (synchronous, run inside the transaction) and resolves with its result once durable. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Calls `listener` with the number of jobs in each batch committed from now on; returns the function that stops it. */
  onBatch(listener: (size: number) => void): () => void {
    this.batchListeners.add(listener);
    return () => this.batchListeners.delete(listener);
  }

  /** Stops syncing; jobs still queued are flushed first by the caller closing the database after. */
  close(): void {
    this.wal?.close();
  }

  private flush(): void {
    // While an fsync runs, the writes that arrive wait and commit together once it ends: their
    // acknowledgement waits for the next fsync either way, and one commit of many rows writes each
    // touched page to the WAL once instead of once per small commit.
    if (this.wal?.syncing) return this.wal.whenIdle(() => this.flush());
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      this.lockTaken(err);
      return;
    }
    this.locked = undefined;
    const jobs = this.queue;
    this.queue = [];
    this.scheduled = false;
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    try {
      for (const job of jobs) {
        this.savepoint.begin.run();
        try {
          outcomes.push({ ok: true, value: job.work() });
          this.savepoint.release.run();
        } catch (err) {
          // Some failures (SQLITE_FULL among them) roll the whole transaction back, savepoints and
          // all: then every job of the batch fails with that error, not with "no such savepoint".
          if (!this.db.inTransaction) throw err;
          this.savepoint.rollback.run();
          this.savepoint.release.run();
          outcomes.push({ ok: false, value: fullOr(err, this.dir) });
        }
      }
      this.db.exec('COMMIT');
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      for (const job of jobs) job.reject(isBusy(err) ? lockedOut() : fullOr(err, this.dir));
      return;
    } finally {
      this.commits++;
    }
    if (this.batchListeners.size) for (const listener of this.batchListeners) listener(jobs.length);
    const settle = (syncError?: unknown) =>
      jobs.forEach((job, i) => (syncError ? job.reject(syncError) : outcomes[i].ok ? job.resolve(outcomes[i].value) : job.reject(outcomes[i].value)));
    if (this.wal) this.wal.afterCommit(settle);
    else settle();
  }

  /** BEGIN failed: wait for the lock on a timer (the queue keeps growing meanwhile), or give up. */
  private lockTaken(err: unknown): void {
    const jobs = this.queue;
    if (!isBusy(err) || (this.locked && Date.now() - this.locked.since > LOCK_PATIENCE_MS)) {
      this.queue = [];
      this.scheduled = false;
      this.locked = undefined;
      for (const job of jobs) job.reject(isBusy(err) ? lockedOut() : fullOr(err, this.dir));
      return;
    }
    this.locked ??= { since: Date.now(), tries: 0 };
    setTimeout(() => this.flush(), Math.min(50, 2 ** this.locked.tries++));
  }
}

/**
 * Makes committed WAL frames durable. fsync flushes the file's inode whichever descriptor wrote
 * it, so our own descriptor covers SQLite's writes. A commit made while an fsync is already
 * running waits for the next one, which starts as soon as that one ends.
 */
class WalSyncer {
  private readonly fd: number;
  private waiting: Array<(err?: unknown) => void> = [];
  private idle: Array<() => void> = [];
  /** True while an fsync is running. */
  syncing = false;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
    // The WAL file's directory entry must be durable too (it may have just been created).
    const dir = openSync(dirname(path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }

  afterCommit(done: (err?: unknown) => void): void {
    this.waiting.push(done);
    if (!this.syncing) this.sync();
  }

  close(): void {
    closeSync(this.fd);
  }

  /** Calls `then` once no fsync is running (after the callbacks of the one that ended). */
  whenIdle(then: () => void): void {
    this.idle.push(then);
  }

  private sync(): void {
    this.syncing = true;
    const batch = this.waiting;
    this.waiting = [];
    fsync(this.fd, (err) => {
      this.syncing = false;
      for (const done of batch) done(err ?? undefined);
      if (this.waiting.length) return this.sync();
      const idle = this.idle;
      this.idle = [];
      for (const then of idle) then();
    });
  }
}
