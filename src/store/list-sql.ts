import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import type { Filter, ListQuery, Page } from './list-query.js';
import { rowToRecord, type Codec } from './records.js';
import { columnOf, queryableField } from '../core/system-fields.js';

type Eb = ExpressionBuilder<any, any>;

/**
 * Builds the SQL for one page of a list (and the optional count), the same for every engine.
 * Order: the requested sort keys, then `id`, so the order is total and keyset pagination exact.
 * NULL sorts first ascending and last descending on every engine (engines index accordingly).
 * Values reach SQL only as bound parameters; names only after validation against the resource.
 */
export function buildListQuery(db: Kysely<any>, resource: ResourceDefinition, query: ListQuery, codec: Codec) {
  const keys = [...query.sort, { field: 'id', descending: false }];
  const backwards = query.after?.backwards ?? false;
  const where = (eb: Eb) => {
    const parts: Expression<SqlBool>[] = matchExprs(eb, resource, query, codec);
    if (query.after) parts.push(keysetExpr(eb, keys, query.after.values, backwards, resource, codec));
    return eb.and(parts);
  };
  let rows = db.selectFrom(resource.name).selectAll().where(where);
  for (const k of keys) {
    const desc = k.descending !== backwards;
    rows = rows.orderBy(columnOf(k.field), (ob) => (desc ? ob.desc().nullsLast() : ob.asc().nullsFirst()));
  }
  rows = rows.limit(query.limit + 1);
  const count = query.withTotal
    ? db.selectFrom(resource.name).select((eb) => eb.fn.countAll().as('n')).where((eb) => eb.and(matchExprs(eb, resource, query, codec)))
    : undefined;
  return { rows, count };
}

/** The filters and the owner restriction: what a record must satisfy to be in the list at all. */
function matchExprs(eb: Eb, resource: ResourceDefinition, query: ListQuery, codec: Codec): Expression<SqlBool>[] {
  const parts = query.filters.map((f) => filterExpr(eb, resource, f, codec));
  if (query.owner !== undefined) parts.push(eb(eb.ref('_owner'), '=', query.owner));
  return parts;
}

/** The page a list query's rows make: at most `limit` records in the requested order, and whether more follow. */
export function pageOf(resource: ResourceDefinition, rows: Record<string, unknown>[], query: ListQuery, codec: Codec, total?: number): Page {
  const records = rows.slice(0, query.limit).map((row) => rowToRecord(resource, row, codec));
  // A backwards page was read in reverse order (see buildListQuery).
  if (query.after?.backwards) records.reverse();
  return { records, hasMore: rows.length > query.limit, total };
}

function fieldOf(resource: ResourceDefinition, name: string): FieldDefinition {
  const field = queryableField(resource, name);
  if (!field) throw new Error(`not a queryable field of ${resource.name}: ${name}`);
  return field;
}

function filterExpr(eb: Eb, resource: ResourceDefinition, f: Filter, codec: Codec): Expression<SqlBool> {
  const field = fieldOf(resource, f.field);
  const ref = eb.ref(columnOf(f.field));
  const v = (x: unknown) => codec.encode(field, x);
  switch (f.op) {
    case 'eq':
      return f.value === null ? eb(ref, 'is', null) : eb(ref, '=', v(f.value));
    case 'ne':
      return f.value === null ? eb(ref, 'is not', null) : eb.or([eb(ref, '<>', v(f.value)), eb(ref, 'is', null)]);
    case 'lt':
      return eb(ref, '<', v(f.value));
    case 'lte':
      return eb(ref, '<=', v(f.value));
    case 'gt':
      return eb(ref, '>', v(f.value));
    case 'gte':
      return eb(ref, '>=', v(f.value));
    case 'in':
      return eb(ref, 'in', (f.value as unknown[]).map(v));
    case 'contains':
      return sql<SqlBool>`${ref} LIKE ${'%' + escapeLike(String(f.value)) + '%'} ESCAPE '\\'`;
    case 'startsWith':
      return sql<SqlBool>`${ref} LIKE ${escapeLike(String(f.value)) + '%'} ESCAPE '\\'`;
  }
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => '\\' + c);
}

/** Rows strictly after `values` in the (possibly reversed) sort order, NULL-aware. */
function keysetExpr(eb: Eb, keys: Array<{ field: string; descending: boolean }>, values: unknown[], backwards: boolean, resource: ResourceDefinition, codec: Codec): Expression<SqlBool> {
  const ors: Expression<SqlBool>[] = [];
  for (let i = 0; i < keys.length; i++) {
    const ands: Expression<SqlBool>[] = [];
    for (let j = 0; j < i; j++) {
      const vj = codec.encode(fieldOf(resource, keys[j].field), values[j]);
      ands.push(vj === null ? eb(eb.ref(columnOf(keys[j].field)), 'is', null) : eb(eb.ref(columnOf(keys[j].field)), '=', vj));
    }
    const after = afterExpr(eb, columnOf(keys[i].field), codec.encode(fieldOf(resource, keys[i].field), values[i]), keys[i].descending !== backwards);
    if (!after) continue;
    ors.push(eb.and([...ands, after]));
  }
  const expr = eb.or(ors);
  // A leading range on the first key lets the engine seek in its index instead of scanning.
  const first = codec.encode(fieldOf(resource, keys[0].field), values[0]);
  if (first === null) return expr;
  const desc = keys[0].descending !== backwards;
  const lead = desc ? eb.or([eb(eb.ref(columnOf(keys[0].field)), '<=', first), eb(eb.ref(columnOf(keys[0].field)), 'is', null)]) : eb(eb.ref(columnOf(keys[0].field)), '>=', first);
  return eb.and([lead, expr]);
}

/** `field` comes after `value` in an ascending (NULLs first) or descending (NULLs last) order. */
function afterExpr(eb: Eb, field: string, value: unknown, descending: boolean): Expression<SqlBool> | undefined {
  const ref = eb.ref(field);
  if (!descending) return value === null ? eb(ref, 'is not', null) : eb(ref, '>', value);
  return value === null ? undefined : eb.or([eb(ref, '<', value), eb(ref, 'is', null)]);
}
