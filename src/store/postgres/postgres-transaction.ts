import type pg from 'pg';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { StoreUnavailableError } from '../errors.js';
import { indexName } from '../schema-plan.js';
import { claimLost, markAppliedQuery, type IdempotencyCompletion } from '../idempotency.js';
import type { Mutation } from '../store.js';
import { changeEvent, missingReference, recordColumns, referencedConflict, rowToRecord, uniqueConflict } from '../records.js';
import { decode, encode } from './postgres-codec.js';
import { pgIdentifier, sqlState, unavailableOr } from './postgres-errors.js';
import { appendEvent } from './postgres-events.js';
import { pgBuilder } from './postgres-kysely.js';
import { LOCK } from './postgres-locks.js';

const codec = { encode, decode };

/** Thrown out of a transaction that lost a race it can win by running again; `final` is the error if it may not. */
export class RetryWrite extends Error {
  constructor(readonly final: Error) {
    super(final.message);
  }
}

/** Opens write transactions on the pool. */
export class Writer {
  constructor(private readonly pool: pg.Pool, private readonly schemaKey: number) {}

  /**
   * Runs `work` in one transaction and resolves after COMMIT. Any error rolls back; a lost
   * connection becomes StoreUnavailableError and the connection is discarded, not reused. If the
   * connection dies during COMMIT the outcome is unknown, but it was never acknowledged.
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx = new Transaction(client, this.schemaKey);
    let discard = false;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      const mapped = unavailableOr(err);
      if (mapped instanceof StoreUnavailableError) discard = true;
      else await client.query('ROLLBACK').catch(() => (discard = true));
      throw discard ? mapped : await tx.explain(err);
    } finally {
      client.release(discard);
    }
  }
}

/** The statements of one write transaction; constraint failures are explained after rollback. */
export class Transaction {
  /** What the failing statement was writing, to explain a constraint failure. */
  private attempt?: { resource: ResourceDefinition; how: 'insert' | 'update' | 'delete'; record: { id?: RecordId; data: Record<string, unknown> } };

  constructor(private readonly client: pg.PoolClient, private readonly schemaKey: number) {}

  /** Runs a statement in this transaction (the engine's other tables, e.g. the webhook inbox). */
  query(sql: string, params: unknown[]): Promise<pg.QueryResult> {
    return this.client.query(sql, params);
  }

  /** Appends an event that is not a record change (e.g. a webhook delivery) in this transaction. */
  appendEvent(e: ReturnType<typeof changeEvent>): Promise<void> {
    return appendEvent(this.client, this.schemaKey, e);
  }

  /** Reads the record and locks its row until commit, so the decision made on it stays true. */
  async lockRow(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined> {
    const { rows } = await this.client.query(`SELECT * FROM "${resource.name}" WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ? rowToRecord(resource, rows[0], codec) : undefined;
  }

  /** Inserts or updates one record and appends its event. */
  async write(resource: ResourceDefinition, how: 'insert' | 'update', record: Omit<StoredRecord, 'id'> & { id?: RecordId }, now: string): Promise<StoredRecord> {
    this.attempt = { resource, how, record };
    await this.checkReferences(resource, record.data);
    const cols = recordColumns(resource, record, codec);
    const q =
      how === 'insert'
        ? pgBuilder.insertInto(resource.name).values(cols).returningAll()
        : pgBuilder.updateTable(resource.name).set(cols).where('id', '=', record.id!).returningAll();
    const c = q.compile();
    const saved = rowToRecord(resource, (await this.client.query(c.sql, c.parameters as unknown[])).rows[0], codec);
    if (how === 'insert' && record.id !== undefined && resource.idType === 'integer') await this.bumpIdSequence(resource, saved.id as number);
    await appendEvent(this.client, this.schemaKey, changeEvent(resource, how === 'insert' ? 'created' : 'updated', saved, now));
    return saved;
  }

  /** Completes the write's Idempotency-Key in this transaction, or aborts the write if the claim was taken over. */
  async markApplied(resource: ResourceDefinition, mutation: Mutation, completion: IdempotencyCompletion | undefined, id?: RecordId): Promise<void> {
    if (!completion) return;
    const c = markAppliedQuery(pgBuilder, completion, { resource: resource.name, recordId: mutation.record?.id ?? id!, outcome: mutation.outcome });
    if (!(await this.client.query(c.sql, c.parameters as unknown[])).rowCount) throw claimLost(completion);
  }

  /** Deletes a record and appends its event. */
  async remove(resource: ResourceDefinition, current: StoredRecord, now: string): Promise<void> {
    this.attempt = { resource, how: 'delete', record: current };
    await this.client.query(`DELETE FROM "${resource.name}" WHERE id = $1`, [current.id]);
    await appendEvent(this.client, this.schemaKey, changeEvent(resource, 'deleted', current, now));
  }

  /**
   * Turns a constraint failure (by SQLSTATE and constraint name, never by message) into the
   * domain error SQLite gives, or into RetryWrite when running again resolves it. Called after
   * ROLLBACK, so the holder of a unique value is looked up on this same, now idle, connection:
   * taking a second pooled connection while holding this one starves the pool when many writes
   * clash at once (each waits for a connection the others hold).
   */
  async explain(err: unknown): Promise<unknown> {
    const state = sqlState(err);
    const attempt = this.attempt;
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
    const holder = await this.client
      .query<{ id: RecordId }>(`SELECT id FROM "${resource.name}" WHERE "${field.name}" = $1 AND id IS DISTINCT FROM $2`, [encode(field, value), record.id ?? null])
      .then((r) => r.rows[0]?.id, () => undefined);
    return uniqueConflict(resource, field.name, value, holder === undefined ? undefined : resource.idType === 'integer' ? Number(holder) : holder);
  }

  /**
   * The SQLite engine checks references before writing and answers 422 for a missing target; so
   * does this one. FOR KEY SHARE keeps the target from being deleted until this write commits.
   */
  private async checkReferences(resource: ResourceDefinition, data: Record<string, unknown>): Promise<void> {
    for (const f of resource.fields) {
      if (f.type !== 'reference' || !f.to || data[f.name] === null || data[f.name] === undefined) continue;
      const { rowCount } = await this.client.query(`SELECT 1 FROM "${f.to}" WHERE id = $1 FOR KEY SHARE`, [data[f.name]]);
      if (!rowCount) throw missingReference(f, data[f.name]);
    }
  }

  /**
   * After a create at a client-chosen integer id, moves the id sequence past it so later POSTs
   * do not draw it (SQLite's AUTOINCREMENT does the same). The lock makes "raise to at least"
   * atomic between nodes; it is per table and only taken on this rare path.
   */
  private async bumpIdSequence(resource: ResourceDefinition, id: number): Promise<void> {
    await this.client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema() || $2))', [LOCK.idSequence, `.${resource.name}`]);
    await this.client.query(
      `SELECT setval(s, $1) FROM (SELECT pg_get_serial_sequence($2, 'id')::regclass AS s) q WHERE coalesce(pg_sequence_last_value(s), 0) < $1`,
      [id, `"${resource.name}"`],
    );
  }
}
