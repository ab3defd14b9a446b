import type { IdType } from '../../config/types.js';
import type { FieldDefinition } from '../../core/resource.js';
import type { Codec } from '../records.js';

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
export function pgColumnType(field: FieldDefinition, refIdType: IdType = 'integer'): string {
  const type = pgValueType(field, refIdType);
  return type === 'text' ? PG_TEXT : type;
}

/** The type of a field's values without the column's collation: what a bound value is cast to. */
export function pgValueType(field: FieldDefinition, refIdType: IdType = 'integer'): string {
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
      return refIdType !== 'integer' ? 'text' : 'bigint';
    default:
      return 'text';
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

/**
 * PostgreSQL text cannot hold NUL (it fails the whole statement), so no stored key contains one: a
 * lookup by such a key is answered "not found" without a query. SQLite gives the same answer by searching.
 */
export function unstorableText(...keys: string[]): boolean {
  return keys.some((k) => k.includes('\u0000'));
}

/** The PostgreSQL codec, for shared flows. */
export const pgCodec: Codec = { encode, decode };
