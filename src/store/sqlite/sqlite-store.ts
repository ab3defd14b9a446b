import { mkdirSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import type { ResourceDefinition } from '../../core/resource.js';
import { databaseLocation } from '../database-location.js';
import type { ClaimResult, Engine } from '../engine.js';
import { runNow, type Flow } from '../flow.js';
import type { IdempotencyClaim } from '../idempotency.js';
import { SqlStore } from '../sql-store.js';
import type { Statements, WriteTransaction } from '../statements.js';
import type { SyncReport } from '../store.js';
import type { StoreSize } from '../store-size.js';
import { fullOr } from './sqlite-errors.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import { claimKey } from './sqlite-idempotency.js';
import { syncSqliteSchema } from './sqlite-schema.js';
import { createSqliteTables } from './sqlite-tables.js';
import { SqliteTransaction } from './sqlite-transaction.js';
import { WalChangeCounter } from './sqlite-wal-index.js';
import { registerSqliteFunctions } from './sqlite-functions.js';

/**
 * The embedded engine: one better-sqlite3 connection in WAL mode. Writes go through a group
 * commit that acknowledges nothing before the WAL is fsynced; reads run directly on cached
 * prepared statements.
 */
export class SqliteStore extends SqlStore {
  /** Opens (creating if needed) the SQLite file a database URL names, or a database in memory. */
  constructor(url: string) {
    super(new SqliteEngine(url));
  }
}

class SqliteEngine implements Engine {
  private readonly db: Database;
  private readonly writer: SqliteGroupCommit;
  /** Reads and write jobs share the connection, and so its statements. */
  private readonly statements: SqliteTransaction;
  /** `PRAGMA data_version`: changes when another connection (process) commits; three syscalls, no B-tree. */
  private readonly dataVersion: Statement;
  private seenVersion: unknown;
  /** Changes seen from elsewhere (data_version moves) and schema work here, for commitStamp. */
  private otherChanges = 0;
  /** The wal-index's commit counter, read without SQLite (absent for a database in memory). */
  private readonly walIndex?: WalChangeCounter;
  /** Stamps handed out when the wal-index header could not be read consistently: each unique, so each misses the cache. */
  private unknownStamps = 0;
  private ping1?: Statement;
  /** The database file's directory (absent in memory), where a failed write may have found no space. */
  private readonly dir?: string;
  /** The write-ahead log's path (absent in memory), whose size counts in the database's. */
  private readonly wal?: string;
  private sizeQuery?: Statement;

  constructor(url: string) {
    const location = databaseLocation(url);
    if (location.kind === 'server') throw new Error('a database server URL names no SQLite file');
    const path = location.kind === 'file' ? location.path : ':memory:';
    if (path !== ':memory:') mkdirSync((this.dir = dirname(path)), { recursive: true });
    try {
      this.db = openConnection(path);
    } catch (err) {
      // Opening writes too (the -shm file, the schema): on a full disk that is the error to report.
      throw fullOr(err, this.dir);
    }
    // SQLite names its -wal and -shm files after the database's real path (symbolic links resolved).
    const real = path === ':memory:' ? undefined : realpathSync(path);
    this.wal = real && `${real}-wal`;
    this.writer = new SqliteGroupCommit(this.db, this.wal);
    this.statements = new SqliteTransaction(this.db);
    this.dataVersion = this.db.prepare('PRAGMA data_version').pluck();
    if (real) this.walIndex = WalChangeCounter.open(`${real}-shm`);
  }

  /**
   * Moves on every commit. From the wal-index's counter, which every commit of every connection
   * increments; without one, this connection's own commits (counted by the group commit, as
   * data_version does not count them) plus the moves of data_version (other connections'), which
   * only grow, so their sum changes whenever either does.
   */
  commitStamp(): number {
    if (this.walIndex) return this.walIndex.read() ?? --this.unknownStamps;
    const version = this.dataVersion.get();
    if (version !== this.seenVersion) {
      this.seenVersion = version;
      this.otherChanges++;
    }
    return this.otherChanges + this.writer.commits;
  }

  async read<T>(flow: (s: Statements) => Flow<T>): Promise<T> {
    return runNow(flow(this.statements));
  }

  write<T>(flow: (s: Statements) => Flow<T>): Promise<T> {
    return this.job(flow);
  }

  /** One writer at a time: there is no race to lose, so no write needs to run again. */
  transaction<T>(flow: (tx: WriteTransaction) => Flow<T>): Promise<T> {
    return this.job(flow);
  }

  /** One writer at a time draws positions in commit order: every stored event may be read. */
  async eventHorizon(): Promise<undefined> {
    return undefined;
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<ClaimResult> {
    return this.writer.run(() => claimKey(this.statements, claim));
  }

  async sync(resources: ResourceDefinition[], allowDestructive: boolean): Promise<SyncReport> {
    return this.whileStarting(() => syncSqliteSchema(this.db, this.statements, resources, allowDestructive));
  }

  /** A statement on the connection: fails only once the database is closed or its file unreadable. */
  async ping(): Promise<void> {
    this.ping1 ??= this.db.prepare('SELECT 1');
    this.ping1.get();
  }

  /**
   * Pages × page size from the header (no B-tree read), the WAL's length from the file system, and
   * the span of event positions from the primary key's two ends: a few microseconds at any size.
   */
  async size(): Promise<StoreSize> {
    this.sizeQuery ??= this.db.prepare(
      'SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size()) AS bytes, (SELECT max(seq) FROM _rw_events) - (SELECT min(seq) FROM _rw_events) + 1 AS events',
    );
    const row = this.sizeQuery.get() as { bytes: number; events: number | null };
    let walBytes = 0;
    try {
      if (this.wal) walBytes = statSync(this.wal).size;
    } catch {
      // No WAL file (checkpointed and removed, or not yet written): nothing to add.
    }
    return { databaseBytes: row.bytes + walBytes, eventRows: row.events ?? 0 };
  }

  onCommitBatch(listener: (size: number) => void): () => void {
    return this.writer.onBatch(listener);
  }

  async close(): Promise<void> {
    // Let writes already queued finish (and become durable) before the connection goes; if
    // another process holds the lock they fail (503) instead, and the connection goes anyway.
    await this.writer.run(() => undefined).catch(() => undefined);
    this.writer.close();
    this.walIndex?.close();
    this.db.close();
  }

  /** Queues `flow` on the group commit; it runs in its own savepoint of the group's transaction, so it is all-or-nothing. */
  private job<T>(flow: (tx: SqliteTransaction) => Flow<T>): Promise<T> {
    return this.writer.run(() => runNow(flow(this.statements)));
  }

  /** Start-up work ({@link busyWhileStarting}); what a read cached before it may be stale. */
  private whileStarting<T>(work: () => T): T {
    try {
      return busyWhileStarting(this.db, work);
    } catch (err) {
      throw fullOr(err, this.dir);
    } finally {
      this.otherChanges++;
    }
  }
}

/**
 * Start-up work (nothing is served yet) may wait for another process's write lock (`serve
 * --workers N`) inside SQLite. Serving never does: SQLite's busy wait blocks the event loop, so
 * the connection otherwise has no busy timeout and the group commit waits for the lock on a timer.
 */
function busyWhileStarting<T>(db: Database, work: () => T): T {
  db.pragma('busy_timeout = 5000');
  try {
    return work();
  } finally {
    db.pragma('busy_timeout = 0');
  }
}

/** A connection to `path`, set up, with Restwell's own tables. */
function openConnection(path: string): Database {
  const db = new BetterSqlite3(path);
  try {
    db.pragma('journal_mode = WAL');
    // Commits write the WAL without fsync; the group commit fsyncs the WAL off the event loop
    // before any write is acknowledged, which is as durable as synchronous=FULL.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // LIKE must mean the same on every engine: case-sensitive (and then index-friendly for prefixes).
    db.pragma('case_sensitive_like = ON');
    registerSqliteFunctions(db);
    busyWhileStarting(db, () => createSqliteTables(db));
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
