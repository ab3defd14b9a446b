import { sql, type CompiledQuery } from 'kysely';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import { fixedShapeQuery } from './fixed-shape.js';
import { step, type Flow } from './flow.js';
import type { ListQuery, Page, ReferencingQuery } from './list-query.js';
import { compileListQuery, pageOf } from './list-sql.js';
import { rowToRecord } from './records.js';
import type { Statements } from './statements.js';

/** One record by id, or undefined. */
export function* getRecord(s: Statements, resource: ResourceDefinition, id: RecordId): Flow<StoredRecord | undefined> {
  const [row] = yield* step(s.rows(selectById(s, resource, id)));
  return row ? rowToRecord(resource, row, s.codec) : undefined;
}

/** Read by id is the hottest query: of a fixed shape per resource, built once. */
function selectById(s: Statements, resource: ResourceDefinition, id: RecordId): CompiledQuery {
  return fixedShapeQuery(s.sql, `record by id: ${resource.name}`, [id], () => s.sql.selectFrom(resource.name).selectAll().where('id', '=', id));
}

/** One page of a list, and the total when asked for. */
export function* listRecords(s: Statements, resource: ResourceDefinition, query: ListQuery): Flow<Page> {
  const { rows, count } = compileListQuery(s.sql, resource, query, s.codec);
  const found = yield* step(s.rows(rows));
  const total = count ? Number((yield* step(s.rows(count)))[0]!.n) : undefined;
  return pageOf(resource, found, query, s.codec, total);
}

/**
 * The records referencing some values through `query.field`, at most `perValue + 1` per value, in
 * one query: a window numbers each value's records by id (every engine has ROW_NUMBER), so a value
 * with a million referencing records costs its first few, not all of them. The field is a
 * validated reference field; the values are bound.
 */
export function* listReferencing(s: Statements, resource: ResourceDefinition, query: ReferencingQuery): Flow<StoredRecord[]> {
  const field = resource.fieldsByName.get(query.field);
  if (!field || field.type !== 'reference') throw new Error(`not a reference field of ${resource.name}: ${query.field}`);
  const column = sql.ref(query.field);
  const values = sql.join(query.values.map((v) => sql`${s.codec.encode(field, v)}`));
  const owner = query.owner === undefined ? sql`` : sql` AND ${sql.ref('_owner')} = ${query.owner}`;
  const compiled = sql`SELECT * FROM (SELECT t.*, ROW_NUMBER() OVER (PARTITION BY ${column} ORDER BY ${sql.ref('id')}) AS _rw_n FROM ${sql.table(resource.name)} t WHERE ${column} IN (${values})${owner}) r WHERE _rw_n <= ${query.perValue + 1} ORDER BY ${column}, ${sql.ref('id')}`.compile(s.sql);
  const rows = yield* step(s.rows(compiled));
  return rows.map((row) => rowToRecord(resource, row, s.codec));
}
