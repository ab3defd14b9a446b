import type { FieldDefinition } from '../../core/resource.js';

/**
 * Text collates byte-wise ("C"), as SQLite's BINARY does, so sorting, range filters and keyset
 * pages agree across engines whatever the database's locale is.
 */
export const PG_TEXT = 'text COLLATE "C"';

/**
 * The PostgreSQL column type of a field. Datetimes stay ISO-8601 UTC text (as on SQLite), so they
 * round-trip byte for byte and sort correctly; json stays `json`, which keeps the document exactly
 * as written (key order included), so "same data" means the same thing on both engines.
 */
export function pgColumnType(field: FieldDefinition, refIdType: 'integer' | 'uuid' = 'integer'): string {
  switch (field.type) {
    case 'integer':
      return 'bigint';
    case 'number':
      return 'double precision';
    case 'boolean':
      return 'boolean';
    case 'json':
      return 'json';
    case 'reference':
      return refIdType === 'uuid' ? PG_TEXT : 'bigint';
    default:
      return PG_TEXT;
  }
}

/** A field value as bound to a PostgreSQL statement (json as its text; pg would turn arrays into PG arrays). */
export function encode(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.type === 'json') return JSON.stringify(value);
  return value;
}

/** A PostgreSQL column value as the field's JSON value (int8 arrives as a number: see postgres-pool.ts). */
export function decode(field: FieldDefinition, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return value;
}

/** The largest bigint: PostgreSQL refuses integers beyond it, where SQLite would quietly keep a float. */
const INT8_MAX = 9223372036854775807;

/**
 * Why PostgreSQL cannot store `value` in the field's column (undefined when it can): text cannot
 * hold NUL characters, and bigint stops at 2^63-1. Checked before writing, so the answer is a 422
 * naming the field rather than a database error.
 */
export function unstorable(field: FieldDefinition, value: unknown): string | undefined {
  if (typeof value === 'string' && field.type !== 'json' && value.includes('\u0000')) return 'must not contain the NUL character (\\u0000)';
  if (typeof value === 'number' && (field.type === 'integer' || field.type === 'reference') && !(Math.abs(value) <= INT8_MAX)) {
    return `must be between -${INT8_MAX} and ${INT8_MAX}`;
  }
  return undefined;
}
