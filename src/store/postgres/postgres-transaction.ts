import type { CompiledQuery, SelectQueryBuilder } from 'kysely';
import type pg from 'pg';
import type { ResourceDefinition } from '../../core/resource.js';
import { StoreUnavailableError } from '../errors.js';
import { runLater } from '../flow.js';
import type { EventRow } from '../records.js';
import { indexName } from '../schema-plan.js';
import type { Row, RowWrite, Statements, WriteTransaction } from '../statements.js';
import { missingReference, referencedConflict, uniqueConflict, uniqueHolder } from '../write-errors.js';
import { fullOr, pgIdentifier, sqlState, unavailableOr } from './postgres-errors.js';
import type { AppendAnnouncer } from './postgres-announcer.js';
import { appendEvents } from './postgres-events.js';
import { pgTypes } from './postgres-kysely.js';
import { LOCK } from './postgres-locks.js';
import { PostgresStatements } from './postgres-statements.js';

/** Thrown out of a transaction that lost a race it can win by running again; `final` is the error if it may not. */
export class RetryWrite extends Error {
  constructor(readonly final: Error) {
    super(final.message);
  }
}

/** Opens write transactions on the pool. */
export class Writer {
  constructor(private readonly pool: pg.Pool, private readonly schemaKey: number, private readonly announcer: AppendAnnouncer) {}

  /**
   * Runs `work` in one transaction and resolves after COMMIT. Any error rolls back; a lost
   * connection becomes StoreUnavailableError and the connection is discarded, not reused. If the
   * connection dies during COMMIT the outcome is unknown, but it was never acknowledged.
   */
  async transaction<T>(work: (tx: PostgresTransaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx = new PostgresTransaction(client, this.schemaKey);
    let discard = false;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      if (tx.appended) this.announcer.announce();
      return result;
    } catch (err) {
      const mapped = unavailableOr(err);
      if (mapped instanceof StoreUnavailableError) discard = true;
      else await client.query('ROLLBACK').catch(() => (discard = true));
      throw discard ? mapped : fullOr(await tx.explain(err));
    } finally {
      client.release(discard);
    }
  }
}

/**
 * The statements of one write transaction on its own connection. Rows a decision is made on are
 * locked (`FOR UPDATE`), reference targets kept (`FOR KEY SHARE`); a broken constraint is
 * explained after rollback.
 */
export class PostgresTransaction extends PostgresStatements implements WriteTransaction {
  /** What the last record write was, to explain a constraint failure. */
  private attempt?: RowWrite;
  /** Whether an event was appended, to announce after commit. */
  appended = false;

  constructor(private readonly client: pg.PoolClient, private readonly schemaKey: number) {
    super(client);
  }

  forUpdate<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q {
    return query.forUpdate() as Q;
  }

  skipLocked<Q extends SelectQueryBuilder<any, any, any>>(query: Q, of?: string): Q {
    return query.forNoKeyUpdate(of as any).skipLocked() as Q;
  }

  forKeyShare<Q extends SelectQueryBuilder<any, any, any>>(query: Q): Q {
    return query.forKeyShare() as Q;
  }

  writeRow(write: RowWrite, query: CompiledQuery): Promise<Row[]> {
    this.attempt = write;
    return this.rows(query);
  }

  /**
   * Moves the id sequence past a client-chosen id so later POSTs do not draw it (SQLite's
   * AUTOINCREMENT does the same). The lock makes "raise to at least" atomic between nodes; it is
   * per table and only taken on this rare path.
   */
  async reserveId(resource: ResourceDefinition, id: number): Promise<void> {
    await this.client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema() || $2))', [LOCK.idSequence, `.${resource.name}`]);
    await this.client.query(
      `SELECT setval(s, $1) FROM (SELECT pg_get_serial_sequence($2, 'id')::regclass AS s) q WHERE coalesce(pg_sequence_last_value(s), 0) < $1`,
      [id, `"${resource.name}"`],
    );
  }

  appendEvents(events: readonly EventRow[]): Promise<void> {
    this.appended = true;
    return appendEvents(this.client, this.schemaKey, events);
  }

  /**
   * TRUNCATE of them all in one statement. A DELETE would leave the deleted rows behind as dead
   * tuples until vacuum, and each row deleted from a referenced table has its foreign keys checked
   * by a scan of the referencing table, dead rows included: replacing 100k records that way took
   * tens of seconds. TRUNCATE cannot empty a table that a table outside the list references, so
   * then the rows are deleted, referencing tables first. Sequences keep their values (ids are never reused).
   */
  async emptyTables(resources: ResourceDefinition[]): Promise<void> {
    // Quoted as identifiers (resource names hold no double quote), in this schema through search_path.
    const tables = resources.map((r) => `"${r.name}"`);
    const outside = await this.client.query(
      `SELECT 1 FROM pg_constraint WHERE contype = 'f' AND confrelid = ANY($1::regclass[]) AND NOT conrelid = ANY($1::regclass[]) LIMIT 1`,
      [tables],
    );
    if (!outside.rowCount) {
      await this.client.query(`TRUNCATE TABLE ${tables.join(', ')}`);
      return;
    }
    for (const r of [...resources].reverse()) await this.run(this.sql.deleteFrom(r.name).compile());
  }

  async bulkLoadSearchIndexes(resource: ResourceDefinition, state: 'off' | 'on'): Promise<void> {
    const { create, drop } = pgTypes.searchIndex!;
    for (const field of resource.search) for (const statement of (state === 'off' ? drop : create)(resource.name, field)) await this.client.query(statement);
  }

  /**
   * Turns a constraint failure (by SQLSTATE and constraint name, never by message) into the
   * domain error, or into RetryWrite when running again resolves it. Called after ROLLBACK, so the
   * holder of a unique value is looked up on this same, now idle, connection: taking a second
   * pooled connection while holding this one starves the pool when many writes clash at once
   * (each waits for a connection the others hold).
   */
  async explain(err: unknown): Promise<unknown> {
    return explainWriteError(err, this.attempt, this);
  }
}

/**
 * A write's constraint failure (by SQLSTATE and constraint name, never by message) as the domain
 * error, or RetryWrite when running again resolves it; anything else is returned as it is. The
 * holder of a unique value is looked up through `statements`, which must not hold a connection
 * another lookup waits for (see PostgresTransaction.explain).
 */
export async function explainWriteError(err: unknown, attempt: RowWrite | undefined, statements: Statements): Promise<unknown> {
  const state = sqlState(err);
  if (!attempt || (state !== '23505' && state !== '23503')) return err;
  const { resource, how, record } = attempt;
  const constraint = (err as pg.DatabaseError).constraint;
  if (state === '23503') {
    if (how === 'delete') return referencedConflict(resource, record.id!);
    const field = resource.fields.find((f) => f.type === 'reference' && pgIdentifier(`${resource.name}_${f.name}_fkey`) === constraint);
    return field ? missingReference(field, record.data[field.name]) : err;
  }
  if (constraint === pgIdentifier(`${resource.name}_pkey`)) {
    // Someone else created this id first (a PUT racing ours, or a PUT at the id our POST drew).
    return new RetryWrite(uniqueConflict(resource, 'id', record.id));
  }
  const field = resource.fields.find((f) => f.unique && pgIdentifier(indexName(resource.name, f.name, true)) === constraint);
  if (!field) return err;
  const value = record.data[field.name];
  const holder = await runLater(uniqueHolder(statements, resource, field, value, record.id)).catch(() => undefined);
  return uniqueConflict(resource, field.name, value, holder);
}
