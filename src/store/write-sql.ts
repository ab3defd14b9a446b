import type { CompiledQuery, Kysely } from 'kysely';
import { fixedShapeQuery } from './fixed-shape.js';
import type { RecordId } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';

/**
 * `INSERT … RETURNING *` or `UPDATE … WHERE id = ? RETURNING *` of a record's column values: its text
 * depends only on the resource, the kind of write and the column names, so it is built once per shape
 * (see fixedShapeQuery); each write binds its own values.
 */
export function recordWriteQuery(sql: Kysely<any>, resource: ResourceDefinition, how: 'insert' | 'update', cols: Record<string, unknown>, id?: RecordId): CompiledQuery {
  const values = Object.values(cols);
  if (how === 'update') values.push(id);
  return fixedShapeQuery(sql, `${how} ${resource.name} ${Object.keys(cols).join(',')}`, values, () =>
    (how === 'insert' ? sql.insertInto(resource.name).values(cols) : sql.updateTable(resource.name).set(cols).where('id', '=', id!)).returningAll(),
  );
}
