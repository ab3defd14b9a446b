import { BadRequestError } from './errors.js';
import type { EventRecord } from './events.js';
import { parseCondition, type Filter, type IdTypeOf } from './field-condition.js';
import { fold } from './fold.js';
import type { ResourceDefinition } from './resource.js';

/**
 * Which events of one collection a reader wants: those about one record (`recordId`), and/or those
 * whose record matches every condition of `where` (the list's filters, with the list's meaning).
 * Each event is judged on its own `data`: the record after the change for `created` and `updated`,
 * the record as it last was for `deleted`. So an update that makes a record stop matching is not
 * sent (nor is one to a record that matched only before it), and an update that makes it match is.
 */
export interface EventFilter {
  resource: string;
  /** The record's id as the event log keeps it (text; integers in their canonical form). */
  recordId?: string;
  /** Conditions on the record's fields, all of which must hold. */
  where: Filter[];
}

/** One condition as given: a field, an operator (absent: `eq`), its value(s), and how the request named it. */
export interface RawCondition {
  field: string;
  op?: string;
  value: string | string[];
  key: string;
}

/** How a filter names its parts in error details (`recordId` or `/filter/recordId`, …). */
export interface FilterNames {
  recordId: string;
}

/** The most conditions one filter may hold: enough for any real subscription, bounded per event. */
export const MAX_CONDITIONS = 20;

/**
 * Builds a filter on `resource`, checking `recordId` against its id type and each condition as
 * a list filter is checked (core/field-condition.ts). Throws a 400 `invalid-query` naming the bad part.
 */
export function parseEventFilter(resource: ResourceDefinition, recordId: string | undefined, conditions: RawCondition[], resources: ReadonlyMap<string, ResourceDefinition>, names: FilterNames = { recordId: 'recordId' }): EventFilter {
  const idTypeOf: IdTypeOf = (field) => resources.get(field.to!)?.idType ?? 'integer';
  if (conditions.length > MAX_CONDITIONS) throw bad(`at most ${MAX_CONDITIONS} field conditions per filter (${conditions.length} were sent)`);
  const where = conditions.map((c) => parseCondition(resource, c.field, c.op, c.value, c.key, idTypeOf));
  return { resource: resource.name, ...(recordId === undefined ? {} : { recordId: canonicalId(resource, recordId, names.recordId) }), where };
}

/** The id as the event log stores it: a positive integer in its canonical digits, or the text itself. */
function canonicalId(resource: ResourceDefinition, text: string, name: string): string {
  if (text.includes('\u0000') || text === '') throw bad(`${name}: "${text.replaceAll('\u0000', '\\u0000')}" is not an id of ${resource.name}`);
  if (resource.idType !== 'integer') return text;
  if (!/^\d{1,15}$/.test(text)) throw bad(`${name}: "${text}" is not an id of ${resource.name} (ids are positive integers)`);
  return String(Number(text));
}

/** True when `event` is one the filter lets through (see EventFilter for what each action is judged on). */
export function matchesEventFilter(filter: EventFilter, event: Pick<EventRecord, 'resource' | 'recordId' | 'data'>): boolean {
  if (event.resource !== filter.resource) return false;
  if (filter.recordId !== undefined && String(event.recordId) !== filter.recordId) return false;
  return filter.where.every((f) => matchesCondition(f, event.data[f.field]));
}

/**
 * The list's meaning of one condition (store/list-plan.ts), for a value in memory: NULL (or a
 * missing member) matches only `eq null` and `ne`; text compares by code point as the engines'
 * binary collations do; `contains`/`startsWith` are case-sensitive and take `%` and `_` literally;
 * the `i…` operators fold both sides with core/fold.ts, as the engines' `rw_fold` does.
 */
export function matchesCondition(filter: Filter, actual: unknown): boolean {
  const v = actual === undefined ? null : actual;
  const want = filter.value;
  switch (filter.op) {
    case 'eq':
      return want === null ? v === null : v !== null && compare(v, want) === 0;
    case 'ne':
      return want === null ? v !== null : v === null || compare(v, want) !== 0;
    case 'lt':
      return v !== null && compare(v, want) < 0;
    case 'lte':
      return v !== null && compare(v, want) <= 0;
    case 'gt':
      return v !== null && compare(v, want) > 0;
    case 'gte':
      return v !== null && compare(v, want) >= 0;
    case 'in':
      return v !== null && (want as unknown[]).some((w) => compare(v, w) === 0);
    case 'contains':
      return typeof v === 'string' && v.includes(String(want));
    case 'startsWith':
      return typeof v === 'string' && v.startsWith(String(want));
    case 'icontains':
      return typeof v === 'string' && fold(v).includes(fold(String(want)));
    case 'istartsWith':
      return typeof v === 'string' && fold(v).startsWith(fold(String(want)));
  }
}

/** Order of two values of one field: numbers by value, booleans false first, text by code point; NaN for values that do not compare. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  return NaN;
}

/**
 * Text order by Unicode code point, what SQLite's BINARY and PostgreSQL's "C" collations give
 * (UTF-8 bytes sort in code point order). JavaScript's `<` compares UTF-16 units, which puts
 * characters above U+FFFF before U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only when both differ here do surrogates matter: a surrogate (a code point above U+FFFF) outranks every BMP unit.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
