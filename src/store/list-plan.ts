import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { fold } from '../core/fold.js';
import { columnOf, queryableField } from '../core/system-fields.js';
import type { Filter, ListQuery } from './list-query.js';
import type { Codec } from './records.js';

/**
 * A condition of a list's WHERE clause with each value replaced by its index in the plan's
 * `values`: all that the SQL text depends on. `is`/`is not` compare with NULL.
 */
export type Condition =
  | { column: string; op: '=' | '<>' | '<' | '<=' | '>' | '>=' | 'like'; value: number }
  | { column: string; op: 'in'; values: number[] }
  | { column: string; op: 'is' | 'is not' }
  /** Case-insensitive LIKE: both sides folded by `rw_fold` (core/fold.ts). */
  | { column: string; op: 'ilike'; value: number }
  | { and: Condition[] }
  | { or: Condition[] }
  /**
   * Rows that may hold the folded text in one of these fields, by the engine's search index (see
   * SearchIndex): only ever ANDed with the exact `ilike` test, which decides. `rowid`: the id is the
   * engine's row key, so a page in id order can walk the candidates in order instead of collecting them.
   */
  | { candidates: string[]; value: number; folded: number; rowid?: true };

/** An engine's search index as a list plan sees it: its query for a folded needle (bound with the needle itself), if the index can narrow it. */
export interface SearchIndex {
  query(folded: string): string | undefined;
}

/** The shape of one page's query: equal shapes have equal SQL, whatever their values. */
export interface ListShape {
  table: string;
  /** The filters and the owner restriction: what the count counts too. */
  match: Condition[];
  /** The keyset position, when paging from one. */
  after?: Condition;
  /** The index of the id a forward page in id order starts after (`after` says the same, in general form). */
  afterId?: number;
  /** Column and direction (true: descending, NULLs last; false: ascending, NULLs first; the other way round with nullsLargest). */
  order: Array<[string, boolean]>;
  /** NULL sorts as the largest value (ListQuery.nullsLargest). */
  nullsLargest?: boolean;
  /** The index of the row limit (`limit + 1`, to tell whether more follow). */
  limit: number;
  /** The index of the rows skipped first, when the query pages by offset. */
  offset?: number;
  withTotal: boolean;
}

/** A list query split into its shape (the SQL) and its values (the bound parameters). */
export interface ListPlan {
  shape: ListShape;
  values: unknown[];
}

/**
 * Plans one page of a list, the same for every engine: the requested sort keys, then `id`, so the
 * order is total and keyset pagination exact. NULL sorts first ascending and last descending on
 * every engine (engines index accordingly); a backwards page reads the reversed order (see pageOf).
 * Values reach SQL only as bound parameters; names only after validation against the resource.
 */
export function planList(resource: ResourceDefinition, query: ListQuery, codec: Codec, index?: SearchIndex): ListPlan {
  const values: unknown[] = [];
  const bind = (value: unknown) => values.push(value) - 1;
  const keys = [...query.sort, { field: 'id', descending: false }];
  const backwards = query.after?.backwards ?? false;
  const match = query.filters.map((f) => filterCondition(resource, f, codec, bind));
  // The index narrows an ilike on search fields (each has one) to candidate rows; the ilike still decides.
  const narrow = (fields: string[], needle: string) => {
    const folded = fold(needle);
    const q = index && fields.every((f) => resource.search.includes(f)) ? index.query(folded) : undefined;
    if (q !== undefined) match.push({ candidates: fields, value: bind(q), folded: bind(folded), ...(resource.idType === 'integer' ? { rowid: true as const } : {}) });
  };
  for (const f of query.filters) if (f.op === 'icontains' || f.op === 'istartsWith') narrow([f.field], String(f.value));
  if (query.search) {
    const pattern = bind(`%${escapeLike(query.search.value)}%`);
    match.push({ or: query.search.fields.map((f): Condition => ({ column: columnOf(fieldOf(resource, f).name), op: 'ilike', value: pattern })) });
    narrow(query.search.fields, query.search.value);
  }
  if (query.owner !== undefined) match.push({ column: '_owner', op: '=', value: bind(query.owner) });
  const after = query.after ? keysetCondition(resource, keys, query.after.values, backwards, codec, bind) : undefined;
  // A forward page in id order starts past one id: a search index's walk can start there too.
  const afterId = query.after && !backwards && query.sort.length === 0 ? { afterId: bind(codec.encode(fieldOf(resource, 'id'), query.after.values[0])) } : {};
  const order = keys.map((k): [string, boolean] => [columnOf(k.field), k.descending !== backwards]);
  const limit = bind(query.limit + 1);
  const offset = query.offset ? { offset: bind(query.offset) } : {};
  const nulls = query.nullsLargest && !query.after ? { nullsLargest: true } : {};
  return { shape: { table: resource.name, match, after, ...afterId, order, limit, ...offset, ...nulls, withTotal: query.withTotal ?? false }, values };
}

type Bind = (value: unknown) => number;

function fieldOf(resource: ResourceDefinition, name: string): FieldDefinition {
  const field = queryableField(resource, name);
  if (!field) throw new Error(`not a queryable field of ${resource.name}: ${name}`);
  return field;
}

function filterCondition(resource: ResourceDefinition, f: Filter, codec: Codec, bind: Bind): Condition {
  const field = fieldOf(resource, f.field);
  const column = columnOf(f.field);
  const v = (x: unknown) => bind(codec.encode(field, x));
  switch (f.op) {
    case 'eq':
      return f.value === null ? { column, op: 'is' } : { column, op: '=', value: v(f.value) };
    case 'ne':
      return f.value === null ? { column, op: 'is not' } : { or: [{ column, op: '<>', value: v(f.value) }, { column, op: 'is' }] };
    case 'lt':
      return { column, op: '<', value: v(f.value) };
    case 'lte':
      return { column, op: '<=', value: v(f.value) };
    case 'gt':
      return { column, op: '>', value: v(f.value) };
    case 'gte':
      return { column, op: '>=', value: v(f.value) };
    case 'in':
      return { column, op: 'in', values: (f.value as unknown[]).map(v) };
    case 'contains':
      return { column, op: 'like', value: bind('%' + escapeLike(String(f.value)) + '%') };
    case 'startsWith':
      return { column, op: 'like', value: bind(escapeLike(String(f.value)) + '%') };
    case 'icontains':
      return { column, op: 'ilike', value: bind('%' + escapeLike(String(f.value)) + '%') };
    case 'istartsWith':
      return { column, op: 'ilike', value: bind(escapeLike(String(f.value)) + '%') };
  }
}

/** `\` escapes LIKE's wildcards (every engine is told `ESCAPE '\'`), so a value matches only itself. */
function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** Rows strictly after `values` in the (possibly reversed) sort order, NULL-aware. */
function keysetCondition(resource: ResourceDefinition, keys: Array<{ field: string; descending: boolean }>, values: unknown[], backwards: boolean, codec: Codec, bind: Bind): Condition {
  const encoded = keys.map((k, i) => codec.encode(fieldOf(resource, k.field), values[i]));
  const ors: Condition[] = [];
  for (let i = 0; i < keys.length; i++) {
    const after = afterCondition(columnOf(keys[i].field), encoded[i], keys[i].descending !== backwards, bind);
    if (!after) continue;
    const ands: Condition[] = [];
    for (let j = 0; j < i; j++) {
      const column = columnOf(keys[j].field);
      ands.push(encoded[j] === null ? { column, op: 'is' } : { column, op: '=', value: bind(encoded[j]) });
    }
    ors.push({ and: [...ands, after] });
  }
  const expr: Condition = { or: ors };
  // A leading range on the first key lets the engine seek in its index instead of scanning.
  const first = encoded[0];
  if (first === null) return expr;
  const column = columnOf(keys[0].field);
  const lead: Condition = keys[0].descending !== backwards ? { or: [{ column, op: '<=', value: bind(first) }, { column, op: 'is' }] } : { column, op: '>=', value: bind(first) };
  return { and: [lead, expr] };
}

/** `column` comes after `value` in an ascending (NULLs first) or descending (NULLs last) order. */
function afterCondition(column: string, value: unknown, descending: boolean, bind: Bind): Condition | undefined {
  if (!descending) return value === null ? { column, op: 'is not' } : { column, op: '>', value: bind(value) };
  return value === null ? undefined : { or: [{ column, op: '<', value: bind(value) }, { column, op: 'is' }] };
}
