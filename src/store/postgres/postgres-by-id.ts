import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { recordColumnNames, rowToRecord } from '../records.js';
import type { Row } from '../statements.js';
import { pgCodec } from './postgres-codec.js';
import { pgBuilder } from './postgres-kysely.js';

/** Who waits for one id. */
type Waiter = { resolve: (record: StoredRecord | undefined) => void; reject: (err: unknown) => void };

/** What the reader runs its statements on: a pg pool (anything with its `query`, in tests). */
export type Queryable = { query(config: pg.QueryConfig<unknown[]>): Promise<{ rows: Row[] }> };

/** Ids per statement at most, so one statement's result stays small whatever the load. */
export const MAX_IDS = 100;

/**
 * Reads by id, batched. Every read asked while the event loop handles one round of I/O goes out
 * after it, with the others of the same resource, as one statement `… WHERE id = ANY($1)`: under
 * load, k concurrent GETs cost one round trip and one execution instead of k, which is where the
 * time of a read went (a socket write and read in Node, a statement's start-up and protocol work in
 * the backend, each as costly as the index lookup itself or more).
 *
 * Batching never serves an older record than a lone read would: the statement is sent after every
 * read in it was asked, so it sees every commit acknowledged before any of them, on any node.
 */
export class ByIdReader {
  /** The reads asked since the last flush, per resource: waiters by id (a repeated id is read once). */
  private batches = new Map<ResourceDefinition, Map<RecordId, Waiter[]>>();
  private scheduled = false;

  constructor(private readonly pool: Queryable) {}

  /** The record with this id, or undefined; read with the others asked in the same turn of the event loop. */
  get(resource: ResourceDefinition, id: RecordId): Promise<StoredRecord | undefined> {
    const batch = this.batches.get(resource) ?? this.batches.set(resource, new Map()).get(resource)!;
    return new Promise((resolve, reject) => {
      const waiters = batch.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else batch.set(id, [{ resolve, reject }]);
      if (this.scheduled) return;
      this.scheduled = true;
      // setImmediate, not a microtask: it runs once the poll phase has handed every socket that was
      // ready to its request handler, so the reads of all the requests that arrived together are in.
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batches = this.batches;
    this.batches = new Map();
    for (const [resource, waiters] of batches) {
      const ids = [...waiters.keys()];
      for (let i = 0; i < ids.length; i += MAX_IDS) void this.answer(resource, ids.slice(i, i + MAX_IDS), waiters);
    }
  }

  /** Runs one statement for `ids` and settles their waiters; each gets a record of its own (callers may change theirs). */
  private async answer(resource: ResourceDefinition, ids: RecordId[], waiters: Map<RecordId, Waiter[]>): Promise<void> {
    let rows: Row[];
    try {
      const { name, text } = statementOf(resource);
      rows = (await this.pool.query({ name, text, values: [ids] })).rows;
    } catch (err) {
      for (const id of ids) for (const w of waiters.get(id)!) w.reject(err);
      return;
    }
    const byId = new Map<RecordId, Row>();
    for (const row of rows) byId.set(resource.idType === 'integer' ? Number(row.id) : row.id, row);
    for (const id of ids) {
      const row = byId.get(id);
      for (const w of waiters.get(id)!) w.resolve(row ? rowToRecord(resource, row, pgCodec) : undefined);
    }
  }
}

/** The statement of each resource definition, built once. */
const statements = new WeakMap<ResourceDefinition, { name: string; text: string }>();

/**
 * The batched read of a resource as a named prepared statement: parsed and planned once per
 * connection, not once per read. It names its columns rather than `*`, because a prepared `*`
 * fails ("cached plan must not change result type") once another node's schema sync adds a column.
 * The name is derived from the text, since a connection may only prepare one text under a name.
 */
function statementOf(resource: ResourceDefinition): { name: string; text: string } {
  let statement = statements.get(resource);
  if (!statement) {
    const { sql: text } = pgBuilder.selectFrom(resource.name).select(recordColumnNames(resource)).where('id', '=', sql<RecordId>`any(${[]})`).compile();
    statement = { name: `rw_by_id_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`, text };
    statements.set(resource, statement);
  }
  return statement;
}
