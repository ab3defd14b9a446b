import type { FieldConfig } from '../../config/types.js';

/** The kinds of JSON value a field is inferred from. */
export type ValueKind = 'integer' | 'number' | 'boolean' | 'datetime' | 'string' | 'json';

/**
 * An RFC 3339 date-time with seconds and a zone (what the validator accepts as `datetime`); a bare
 * date such as 2026-01-31, or a time without a zone, stays a string.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The kind of one non-null value. */
export function kindOf(value: unknown): ValueKind {
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    case 'string':
      return isStorableDateTime(value) ? 'datetime' : 'string';
    default:
      return 'json';
  }
}

function isStorableDateTime(text: string): boolean {
  if (!DATE_TIME.test(text)) return false;
  const t = Date.parse(text);
  if (Number.isNaN(t)) return false;
  const year = new Date(t).getUTCFullYear();
  return year >= 0 && year <= 9999;
}

/** What the rows of a collection showed of one field. */
export interface FieldEvidence {
  kinds: Set<ValueKind>;
  /** Rows where the field is present and not null. */
  filled: number;
}

/** Every field of a collection's rows (but `id`), in order of first appearance, with the kinds of its values. */
export function collectFields(rows: Array<Record<string, unknown>>): Map<string, FieldEvidence> {
  const fields = new Map<string, FieldEvidence>();
  for (const row of rows) {
    for (const name of Object.keys(row)) {
      if (name === 'id') continue;
      let evidence = fields.get(name);
      if (!evidence) fields.set(name, (evidence = { kinds: new Set(), filled: 0 }));
      const value = row[name];
      if (value === null || value === undefined) continue;
      evidence.kinds.add(kindOf(value));
      evidence.filled++;
    }
  }
  return fields;
}

/**
 * The field type that holds every value seen: one kind is that type; integers with fractions are
 * numbers; datetimes with other strings are strings; any other mix, objects, arrays, or only nulls
 * are json. A field is required when every row has a non-null value for it (the file shows no
 * record without one); nothing is inferred unique.
 */
export function fieldConfig(evidence: FieldEvidence, rows: number): FieldConfig {
  const kinds = evidence.kinds;
  let type: FieldConfig['type'] = 'json';
  if (kinds.size === 1) type = [...kinds][0]!;
  else if (kinds.size === 2 && kinds.has('integer') && kinds.has('number')) type = 'number';
  else if (kinds.size === 2 && kinds.has('datetime') && kinds.has('string')) type = 'string';
  return rows > 0 && evidence.filled === rows ? { type, required: true } : { type };
}
