import { BadRequestError } from './errors.js';
import type { FieldDefinition, ResourceDefinition } from './resource.js';
import { queryableField } from './system-fields.js';

/** Filter operators, as in `field[op]=v`; a bare `field=v` is `eq`. */
export const OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'startsWith', 'icontains', 'istartsWith'] as const;
/** Operators that apply only to text (string and enum) fields. */
export const TEXT_ONLY: ReadonlySet<string> = new Set(['contains', 'startsWith', 'icontains', 'istartsWith']);

/** A comparison on one field, from `field=v` or `field[op]=v`. */
export interface Filter {
  field: string;
  op: (typeof OPERATORS)[number];
  value: unknown;
}

/** The id type of a reference field's target collection. */
export type IdTypeOf = (reference: FieldDefinition) => ResourceDefinition['idType'];

/** The largest integer a filter takes (15 digits, exact in every engine's numbers), negated the smallest. */
export const MAX_FILTER_INTEGER = 999_999_999_999_999;

/**
 * One condition on one field, checked and typed as a list URL's filter is: the field must be
 * filterable, the operator known and fit for the field's type, the value of the field's type
 * (`in` takes several). `key` is how the caller named it, for the 400's detail. One parser for
 * lists, live streams and webhook endpoint filters, so they all accept and mean the same.
 */
export function parseCondition(resource: ResourceDefinition, fieldName: string, opName: string | undefined, text: string | string[], key: string, idTypeOf: IdTypeOf): Filter {
  const field = queryableField(resource, fieldName);
  if (!field) throw bad(`unknown query parameter "${key}": ${resource.name} has no filterable field "${fieldName}"`);
  const op = (opName ?? 'eq') as Filter['op'];
  if (!OPERATORS.includes(op)) throw bad(`unknown operator "${opName}" in "${key}"; operators: ${OPERATORS.join(', ')}`);
  if (TEXT_ONLY.has(op) && field.type !== 'string' && field.type !== 'enum') throw bad(`${op} applies only to text fields; ${field.name} is ${field.type}`);
  if (Array.isArray(text) && op !== 'in') throw bad(`${key}: only the in operator takes a list of values`);
  const items = Array.isArray(text) ? text : op === 'in' ? text.split(',') : undefined;
  const value = items ? items.map((t) => parseValue(field, key, t, idTypeOf)) : parseValue(field, key, text as string, idTypeOf, TEXT_ONLY.has(op));
  return { field: field.name, op, value };
}

function parseValue(field: FieldDefinition, key: string, text: string, idTypeOf: IdTypeOf, raw = false): unknown {
  // No engine stores NUL in text, so no value can match it; say so rather than let engines differ.
  if (text.includes('\u0000')) throw bad(`${key}: values must not contain the NUL character`);
  if (raw) return text;
  switch (field.type) {
    case 'integer':
      if (!/^-?\d{1,15}$/.test(text)) throw bad(`${key}: "${text}" is not an integer`);
      return Number(text);
    case 'number':
      if (text.trim() === '' || !Number.isFinite(Number(text))) throw bad(`${key}: "${text}" is not a number`);
      return Number(text);
    case 'boolean':
      return parseBoolean(key, text);
    case 'datetime': {
      const t = Date.parse(text);
      if (Number.isNaN(t)) throw bad(`${key}: "${text}" is not a date-time (use RFC 3339, e.g. 2026-01-31T12:00:00Z)`);
      return new Date(t).toISOString();
    }
    case 'reference':
      if (idTypeOf(field) !== 'integer') return text;
      // Compared with an integer column: anything else would fail on a typed engine, and match nothing anyway.
      if (!/^\d{1,15}$/.test(text)) throw bad(`${key}: "${text}" is not an id of ${field.to} (ids are positive integers)`);
      return Number(text);
    case 'enum':
      if (!field.values!.includes(text)) throw bad(`${key}: "${text}" is not one of ${field.values!.join(', ')}`);
      return text;
    default:
      return text;
  }
}

/** `true` or `false`, or a 400 naming the parameter. */
export function parseBoolean(key: string, text: string): boolean {
  if (text !== 'true' && text !== 'false') throw bad(`${key} must be true or false`);
  return text === 'true';
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
