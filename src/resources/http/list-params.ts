import { BadRequestError } from '../../core/errors.js';
import type { FieldDefinition, ResourceDefinition } from '../../core/resource.js';
import { parseStrictJson } from '../../core/strict-json.js';
import { queryableField } from '../../core/system-fields.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../http/page-size.js';
import { MAX_FILTER_INTEGER, parseBoolean, parseCondition, type Filter, type IdTypeOf } from '../../core/field-condition.js';
import type { ListQuery } from '../../store/list-query.js';

export { MAX_FILTER_INTEGER };

/** The longest `q=` accepted: a search, not a document. */
export const MAX_SEARCH_LENGTH = 200;

/** A parsed list request: the store query plus what the representation needs. */
export interface ListParams {
  query: ListQuery;
  /** Sparse fieldset (`fields=a,b`), undefined for all fields. */
  fields?: string[];
  /** The canonical sort text, bound into cursors so a cursor is never used with another order. */
  sortText: string;
  /** The `expand` values as given (parsed with the caller's rights by parseExpand). */
  expand: string[];
}

/** Sort keys the server sets on every record, so never null. */
const SERVER_MANAGED: ReadonlySet<string> = new Set(['id', 'createdAt', 'updatedAt']);

interface CursorBody {
  v: unknown[];
  s: string;
  b?: 1;
}

/**
 * Validates `GET /{collection}` query parameters: filters `field=v` / `field[op]=v`, `sort`,
 * `fields`, `limit`, `cursor`, `total`. Every unknown name, operator or ill-typed value is a 400
 * that names it; only validated field names and typed values go on to the store. `resources`
 * gives reference fields their target's id type.
 */
export function parseListParams(resource: ResourceDefinition, raw: Record<string, string | string[] | undefined>, resources: ReadonlyMap<string, ResourceDefinition>): ListParams {
  const idTypeOf = (field: FieldDefinition) => resources.get(field.to!)?.idType ?? 'integer';
  const filters: Filter[] = [];
  let limit = DEFAULT_LIMIT;
  let sortText = '';
  let fields: string[] | undefined;
  let cursor: string | undefined;
  let withTotal = false;
  let search: ListQuery['search'];
  const expand: string[] = [];
  for (const [key, rawValue] of Object.entries(raw)) {
    if (rawValue === undefined) continue;
    const values = Array.isArray(rawValue) ? rawValue : [rawValue];
    const single = () => {
      if (values.length > 1) throw bad(`${key} may be given only once`);
      return values[0];
    };
    if (key === 'limit') limit = parseLimit(single());
    else if (key === 'sort') sortText = single();
    else if (key === 'fields') fields = parseFields(resource, single());
    else if (key === 'cursor') cursor = single();
    else if (key === 'total') withTotal = parseBoolean('total', single());
    else if (key === 'q') search = parseSearch(resource, single());
    else if (key === 'expand') expand.push(...values);
    else for (const v of values) filters.push(parseFilter(resource, key, v, idTypeOf));
  }
  const sort = parseSort(resource, sortText);
  const query: ListQuery = { filters, sort, limit, withTotal, ...(search ? { search } : {}) };
  if (cursor) query.after = decodeCursor(cursor, sortText, [...sort.map((k) => queryableField(resource, k.field)!), queryableField(resource, 'id')!], idTypeOf);
  return { query, fields, sortText, expand };
}

/** `q=`: a case-insensitive substring of any of the resource's search fields; empty means no search. */
function parseSearch(resource: ResourceDefinition, text: string): ListQuery['search'] {
  if (text === '') return undefined;
  if (!resource.search.length) throw bad(`q: ${resource.name} has no search fields (list its string fields under resources.${resource.name}.search in the config)`);
  if ([...text].length > MAX_SEARCH_LENGTH) throw bad(`q: at most ${MAX_SEARCH_LENGTH} characters (${[...text].length} were sent)`);
  if (text.includes('\u0000')) throw bad('q: values must not contain the NUL character');
  return { fields: resource.search, value: text };
}

/** An opaque cursor for the position after (or, backwards, before) a record. */
export function encodeCursor(values: unknown[], sortText: string, backwards: boolean): string {
  const body: CursorBody = { v: values, s: sortText, ...(backwards ? { b: 1 as const } : {}) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * The keyset position in a cursor, checked like any other input: it is bound to its sort, and each
 * value must have the type of its sort key, so a forged cursor is a 400 on every engine rather
 * than a query that one engine answers and another fails.
 */
function decodeCursor(cursor: string, sortText: string, keys: FieldDefinition[], idTypeOf: IdTypeOf): ListQuery['after'] {
  const forged = bad('cursor is not a cursor this server issued; follow the next/prev links');
  let body: CursorBody;
  try {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    // Buffer skips characters that are not base64url; re-encoding catches them (and invalid UTF-8).
    if (Buffer.from(text).toString('base64url') !== cursor) throw forged;
    // Held to what a body is held to: a lone surrogate or a repeated name is no cursor this server wrote.
    body = parseStrictJson(text) as CursorBody;
  } catch {
    throw forged;
  }
  if (!body || typeof body !== 'object' || !Array.isArray(body.v) || typeof body.s !== 'string' || (body.b !== undefined && body.b !== 1)) throw forged;
  if (body.s !== sortText) throw bad(`cursor was issued for sort=${body.s || '(none)'}; keep the same sort while paging`);
  if (body.v.length !== keys.length) throw forged;
  keys.forEach((field, i) => {
    if (fitsKey(field, body.v[i], idTypeOf)) return;
    const expected = field.type === 'reference' ? `an id of ${field.to}` : `${/^[aeiou]/.test(field.type) ? 'an' : 'a'} ${field.type}`;
    throw bad(`cursor holds ${JSON.stringify(body.v[i]).slice(0, 40)} for ${field.name}, which is not ${expected}; follow the next/prev links`);
  });
  return { values: body.v, backwards: body.b === 1 };
}

/** True when `value` is what a record of this resource can hold in a sort key. */
function fitsKey(field: FieldDefinition, value: unknown, idTypeOf: IdTypeOf): boolean {
  // Declared fields may be null (even required ones, for records stored before they were); id and timestamps never are.
  if (value === null) return !SERVER_MANAGED.has(field.name);
  const text = typeof value === 'string' && !value.includes('\u0000');
  switch (field.type) {
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'reference':
      return idTypeOf(field) === 'integer' ? Number.isSafeInteger(value) : text;
    default:
      return text;
  }
}

function parseLimit(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_LIMIT) throw bad(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return Number(text);
}

function parseFields(resource: ResourceDefinition, text: string): string[] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (!resource.fieldsByName.has(n) && !['id', 'version', 'createdAt', 'updatedAt'].includes(n)) throw bad(`fields: ${resource.name} has no field "${n}"`);
  }
  return names;
}

function parseSort(resource: ResourceDefinition, text: string) {
  if (!text) return [];
  const seen = new Set<string>();
  return text.split(',').map((part) => {
    const descending = part.startsWith('-');
    const name = part.replace(/^[-+]/, '').trim();
    if (!queryableField(resource, name)) throw bad(`sort: ${resource.name} has no sortable field "${name}"`);
    if (seen.has(name)) throw bad(`sort: "${name}" is listed twice`);
    seen.add(name);
    return { field: name, descending };
  }).filter((k) => k.field !== 'id' || k.descending);
}

/** One filter parameter (`field` or `field[op]`) and its value, checked and typed as a list URL's are. */
export function parseFilterParam(resource: ResourceDefinition, key: string, text: string, resources: ReadonlyMap<string, ResourceDefinition>): Filter {
  return parseFilter(resource, key, text, (field) => resources.get(field.to!)?.idType ?? 'integer');
}

function parseFilter(resource: ResourceDefinition, key: string, text: string, idTypeOf: IdTypeOf): Filter {
  const m = /^([A-Za-z][A-Za-z0-9_]*)(?:\[([A-Za-z]+)\])?$/.exec(key);
  if (!m) throw bad(`unknown query parameter "${key}": ${resource.name} has no filterable field "${key}"`);
  return parseCondition(resource, m[1], m[2], text, key, idTypeOf);
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
