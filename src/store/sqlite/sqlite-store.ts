import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import type { EventRecord } from '../../core/events.js';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { claimLost, entryOf, markAppliedQuery, type IdempotencyClaim, type IdempotencyCompletion, type IdempotencyEntry } from '../idempotency.js';
import type { ListQuery, Page } from '../list-query.js';
import { buildListQuery, pageOf } from '../list-sql.js';
import {
  changeEvent, firstGeneration, missingReference, recordColumns, referencedConflict, rowToRecord, sameData, uniqueConflict,
} from '../records.js';
import { buildEventByIdQuery, buildEventQuery, type EventQuery, type EventVisibility } from '../event-query.js';
import type { Decide, Mutation, Store, SyncReport, WriteOptions } from '../store.js';
import type { Inbox } from '../inbox.js';
import { databaseLocation } from '../database-location.js';
import { GroupCommit } from './sqlite-group-commit.js';
import { SQLITE_INBOX_DDL, SqliteInbox } from './sqlite-inbox.js';
import { decode, encode } from './sqlite-codec.js';
import { sqliteBuilder } from './sqlite-kysely.js';
import { SQLITE_SYSTEM_DDL, syncSqliteSchema, upgradeSqliteSystemTables } from './sqlite-schema.js';

const codec = { encode, decode };

/**
 * The embedded engine: one better-sqlite3 connection in WAL mode. Writes go through a group
 * commit that acknowledges nothing before the WAL is fsynced; reads run directly on cached
 * prepared statements.
 */
export class SqliteStore implements Store {
  private readonly db: Database;
  private readonly writer: GroupCommit;
  private readonly statements = new Map<string, Statement>();
  readonly inbox: Inbox;

  constructor(url: string) {
    const location = databaseLocation(url);
    if (location.kind === 'server') throw new Error('a database server URL names no SQLite file');
    const path = location.kind === 'file' ? location.path : ':memory:';
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new BetterSqlite3(path);
    this.db.pragma('journal_mode = WAL');
    // Commits write the WAL without fsync; GroupCommit fsyncs the WAL off the event loop before
    // any write is acknowledged, which is as durable as synchronous=FULL.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    // LIKE must mean the same on every engine: case-sensitive (and then index-friendly for prefixes).
    this.db.pragma('case_sensitive_like = ON');
    this.whileStarting(() => {
      this.db.exec(SQLITE_SYSTEM_DDL);
      upgradeSqliteSystemTables(this.db);
      this.db.exec(SQLITE_INBOX_DDL);
    });
    this.writer = new GroupCommit(this.db, path === ':memory:' ? undefined : `${path}-wal`);
    // The inbox writes through this store's group commit and record path, so its effects fire events too.
    this.inbox = new SqliteInbox({
      writer: this.writer,
      stmt: (sql) => this.stmt(sql),
      insertRecord: (resource, data, now) => this.write(resource, 'insert', firstGeneration(resource, data, now, null), now),
      appendEvent: (e) => this.appendEvent(e),
    });
  }

  async sync(resources: ResourceDefinition[], options: { allowDestructive: boolean }): Promise<SyncReport> {
    return this.whileStarting(() => syncSqliteSchema(this.db, resources, options.allowDestructive));
  }

  async get(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined> {
    return this.read(resource, id);
  }

  async list(resource: ResourceDefinition, query: ListQuery): Promise<Page> {
    const { rows: rowsQuery, count } = buildListQuery(sqliteBuilder, resource, query, codec);
    const compiled = rowsQuery.compile();
    const rows = this.stmt(compiled.sql).all(...(compiled.parameters as unknown[])) as Record<string, unknown>[];
    let total: number | undefined;
    if (count) {
      const c = count.compile();
      total = Number((this.stmt(c.sql).get(...(c.parameters as unknown[])) as { n: number }).n);
    }
    return pageOf(resource, rows, query, codec, total);
  }

  insert(resource: ResourceDefinition, data: Record<string, unknown>, options: WriteOptions = {}): Promise<StoredRecord> {
    return this.writer.run(() => {
      const now = new Date().toISOString();
      const record = this.write(resource, 'insert', firstGeneration(resource, data, now, options.owner ?? null), now);
      this.markApplied(resource, { outcome: 'created', record }, options.idempotency);
      return record;
    });
  }

  mutate(resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions = {}): Promise<Mutation> {
    return this.writer.run((): Mutation => {
      const mutation = this.decideAndWrite(resource, id, decide, options);
      this.markApplied(resource, mutation, options.idempotency, id);
      return mutation;
    });
  }

  /** The body of a `mutate` job: reads the record, lets `decide` choose, writes that with its event. */
  private decideAndWrite(resource: ResourceDefinition, id: RecordId, decide: Decide, options: WriteOptions): Mutation {
    const current = this.read(resource, id);
    const decision = decide(current);
    const now = new Date().toISOString();
    if ('keep' in decision) return { outcome: 'unchanged', record: current };
    if ('delete' in decision) {
      if (!current) return { outcome: 'unchanged' };
      try {
        this.stmt(`DELETE FROM "${resource.name}" WHERE id = ?`).run(id);
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw referencedConflict(resource, id);
        throw err;
      }
      this.appendEvent(changeEvent(resource, 'deleted', current, now));
      return { outcome: 'deleted', record: current };
    }
    if (!current) {
      const fresh = firstGeneration(resource, decision.put, now, options.owner ?? null, id);
      return { outcome: 'created', record: this.write(resource, 'insert', fresh, now) };
    }
    if (sameData(current.data, decision.put)) return { outcome: 'unchanged', record: current };
    const next = { ...current, version: current.version + 1, updatedAt: now, data: decision.put };
    return { outcome: 'updated', record: this.write(resource, 'update', next, now) };
  }

  /** Completes the write's Idempotency-Key in its transaction (this job's savepoint), or aborts the write. */
  private markApplied(resource: ResourceDefinition, mutation: Mutation, completion: IdempotencyCompletion | undefined, id?: RecordId): void {
    if (!completion) return;
    const c = markAppliedQuery(sqliteBuilder, completion, { resource: resource.name, recordId: mutation.record?.id ?? id!, outcome: mutation.outcome });
    if (this.stmt(c.sql).run(...(c.parameters as unknown[])).changes === 0) throw claimLost(completion);
  }

  async listEvents(query: EventQuery): Promise<EventRecord[]> {
    const c = buildEventQuery(sqliteBuilder, query).compile();
    return (this.stmt(c.sql).all(...(c.parameters as unknown[])) as any[]).map(toEvent);
  }

  async getEvent(id: string, visible?: EventVisibility): Promise<EventRecord | undefined> {
    const c = buildEventByIdQuery(sqliteBuilder, id, visible).compile();
    const row = this.stmt(c.sql).get(...(c.parameters as unknown[]));
    return row ? toEvent(row) : undefined;
  }

  claimIdempotencyKey(claim: IdempotencyClaim): Promise<{ claimed: true } | { claimed: false; entry: IdempotencyEntry }> {
    return this.writer.run(() => {
      const row = this.stmt('SELECT fingerprint, state, response, applied, expires_at FROM _rw_idempotency WHERE scope = ? AND key = ?').get(claim.scope, claim.key) as any;
      if (row && row.expires_at > new Date().toISOString()) return { claimed: false as const, entry: entryOf(row) };
      this.stmt(
        `INSERT INTO _rw_idempotency (scope, key, fingerprint, state, response, expires_at, claim_id, applied) VALUES (?, ?, ?, 'in-flight', NULL, ?, ?, NULL)
         ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in-flight', response = NULL, expires_at = excluded.expires_at,
           claim_id = excluded.claim_id, applied = NULL`,
      ).run(claim.scope, claim.key, claim.fingerprint, claim.expiresAt, claim.id);
      return { claimed: true as const };
    });
  }

  completeIdempotencyKey(claim: Pick<IdempotencyClaim, 'scope' | 'key' | 'id'>, response: IdempotencyEntry['response'] | undefined, expiresAt?: string): Promise<void> {
    return this.writer.run(() => {
      if (response) {
        this.stmt(`UPDATE _rw_idempotency SET state = 'complete', response = ?, expires_at = coalesce(?, expires_at) WHERE scope = ? AND key = ? AND claim_id = ?`)
          .run(JSON.stringify(response), expiresAt ?? null, claim.scope, claim.key, claim.id);
      } else {
        this.stmt(`DELETE FROM _rw_idempotency WHERE scope = ? AND key = ? AND claim_id = ? AND state = 'in-flight'`).run(claim.scope, claim.key, claim.id);
      }
      // Expired keys are swept as a side effect of writes, so the table stays bounded without a timer.
      this.stmt('DELETE FROM _rw_idempotency WHERE expires_at < ?').run(new Date().toISOString());
    });
  }

  putDocument(kind: string, id: string, data: Record<string, unknown>, expiresAt?: string): Promise<void> {
    return this.writer.run(() => {
      this.stmt('INSERT INTO _rw_documents (kind, id, data, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at')
        .run(kind, id, JSON.stringify(data), expiresAt ?? null);
    });
  }

  async getDocument(kind: string, id: string): Promise<Record<string, unknown> | undefined> {
    const row = this.stmt('SELECT data FROM _rw_documents WHERE kind = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)').get(kind, id, new Date().toISOString()) as { data: string } | undefined;
    return row ? JSON.parse(row.data) : undefined;
  }

  async listDocuments(kind: string): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
    const rows = this.stmt('SELECT id, data FROM _rw_documents WHERE kind = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY id').all(kind, new Date().toISOString()) as Array<{ id: string; data: string }>;
    return rows.map((r) => ({ id: r.id, data: JSON.parse(r.data) }));
  }

  deleteDocument(kind: string, id: string): Promise<boolean> {
    return this.writer.run(() => this.stmt('DELETE FROM _rw_documents WHERE kind = ? AND id = ?').run(kind, id).changes > 0);
  }

  async close(): Promise<void> {
    // Let writes already queued finish (and become durable) before the connection goes; if
    // another process holds the lock they fail (503) instead, and the connection goes anyway.
    await this.writer.run(() => undefined).catch(() => undefined);
    this.writer.close();
    this.db.close();
  }

  /**
   * Start-up work (nothing is served yet) may wait for another process's write lock (`serve
   * --workers N`) inside SQLite. Serving never does: SQLite's busy wait blocks the event loop, so
   * the connection otherwise has no busy timeout and GroupCommit waits for the lock on a timer.
   */
  private whileStarting<T>(work: () => T): T {
    this.db.pragma('busy_timeout = 5000');
    try {
      return work();
    } finally {
      this.db.pragma('busy_timeout = 0');
    }
  }

  private read(resource: ResourceDefinition, id: RecordId): StoredRecord | undefined {
    const row = this.stmt(`SELECT * FROM "${resource.name}" WHERE id = ?`).get(id) as Record<string, unknown> | undefined;
    return row ? rowToRecord(resource, row, codec) : undefined;
  }

  /** Inserts or updates one record and its event; maps constraint failures to domain errors. */
  private write(resource: ResourceDefinition, how: 'insert' | 'update', record: Omit<StoredRecord, 'id'> & { id?: RecordId }, now: string): StoredRecord {
    this.checkReferences(resource, record.data);
    const cols = recordColumns(resource, record, codec);
    const q =
      how === 'insert'
        ? sqliteBuilder.insertInto(resource.name).values(cols).returningAll()
        : sqliteBuilder.updateTable(resource.name).set(cols).where('id', '=', record.id!).returningAll();
    const c = q.compile();
    let row: Record<string, unknown>;
    try {
      row = this.stmt(c.sql).get(...(c.parameters as unknown[])) as Record<string, unknown>;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' || (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw this.whichUnique(resource, record);
      }
      throw err;
    }
    const saved = rowToRecord(resource, row, codec);
    this.appendEvent(changeEvent(resource, how === 'insert' ? 'created' : 'updated', saved, now));
    return saved;
  }

  private checkReferences(resource: ResourceDefinition, data: Record<string, unknown>): void {
    for (const f of resource.fields) {
      if (f.type !== 'reference' || data[f.name] === null || data[f.name] === undefined) continue;
      if (!this.stmt(`SELECT 1 FROM "${f.to}" WHERE id = ?`).get(data[f.name])) throw missingReference(f, data[f.name]);
    }
  }

  private whichUnique(resource: ResourceDefinition, record: { id?: RecordId; data: Record<string, unknown> }) {
    for (const f of resource.fields.filter((f) => f.unique)) {
      const holder = this.stmt(`SELECT id FROM "${resource.name}" WHERE "${f.name}" = ? AND id IS NOT ?`).get(encode(f, record.data[f.name]), record.id ?? null) as { id: RecordId } | undefined;
      if (holder) return uniqueConflict(resource, f.name, record.data[f.name], holder.id);
    }
    return uniqueConflict(resource, 'id', record.id);
  }

  private appendEvent(e: ReturnType<typeof changeEvent>): void {
    this.stmt('INSERT INTO _rw_events (id, type, resource, record_id, data, created_at, owner) VALUES (?, ?, ?, ?, ?, ?, ?)').run(e.id, e.type, e.resource, e.record_id, e.data, e.created_at, e.owner);
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      // List queries vary with their filters; keep the cache bounded.
      if (this.statements.size > 1000) this.statements.clear();
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}

function toEvent(row: any): EventRecord {
  return { seq: row.seq, id: row.id, type: row.type, resource: row.resource, recordId: JSON.parse(row.data).id ?? row.record_id, data: JSON.parse(row.data), createdAt: row.created_at };
}
