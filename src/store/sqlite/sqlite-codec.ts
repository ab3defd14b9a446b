import type { IdType } from '../../config/types.js';
import type { FieldDefinition } from '../../core/resource.js';
import type { Codec } from '../records.js';

/** The SQLite column type of a field. Datetimes are ISO-8601 UTC text, which sorts correctly. */
export function sqliteColumnType(field: FieldDefinition, refIdType: IdType = 'integer'): string {
  switch (field.type) {
    case 'integer':
    case 'boolean':
      return 'INTEGER';
    case 'number':
      return 'REAL';
    case 'reference':
      return refIdType !== 'integer' ? 'TEXT' : 'INTEGER';
    default:
      return 'TEXT';
  }
}

/** A field value as bound to a SQLite statement. */
export function encode(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.type === 'boolean') return value ? 1 : 0;
  if (field.type === 'json') return JSON.stringify(value);
  return value;
}

/** A SQLite column value as the field's JSON value. */
export function decode(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.type === 'boolean') return value === 1;
  if (field.type === 'json') return JSON.parse(value as string);
  return value;
}

/** The SQLite codec, for shared flows. */
export const sqliteCodec: Codec = { encode, decode };
