import { CompiledQuery, type Kysely } from 'kysely';
import type { RecordId } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';

/** Compiled SQL of record writes, per query builder (engine), by resource, kind and column list. */
const compiled = new WeakMap<object, Map<string, string>>();

/**
 * `INSERT … RETURNING *` or `UPDATE … WHERE id = ? RETURNING *` of a record's column values.
 * Building the query with Kysely cost as much as running it, and its text depends only on the
 * resource, the kind of write and the column names, so it is built once per shape; each write
 * binds its own values. A shape is kept only when Kysely bound exactly the column values (and the
 * id), in order, so the kept text means what Kysely would have built for any values.
 */
export function recordWriteQuery(sql: Kysely<any>, resource: ResourceDefinition, how: 'insert' | 'update', cols: Record<string, unknown>, id?: RecordId): CompiledQuery {
  const values = Object.values(cols);
  if (how === 'update') values.push(id);
  let texts = compiled.get(sql);
  if (!texts) compiled.set(sql, (texts = new Map()));
  const key = `${how} ${resource.name} ${Object.keys(cols).join(',')}`;
  const text = texts.get(key);
  if (text !== undefined) return CompiledQuery.raw(text, values);
  const query = (how === 'insert' ? sql.insertInto(resource.name).values(cols) : sql.updateTable(resource.name).set(cols).where('id', '=', id!)).returningAll().compile();
  if (query.parameters.length === values.length && query.parameters.every((p, i) => p === values[i])) texts.set(key, query.sql);
  return query;
}
