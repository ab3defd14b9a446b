import { CompiledQuery, sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { FOLD_FUNCTION } from '../core/fold.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { ListQuery, Page } from './list-query.js';
import { planList, type Condition, type ListShape, type SearchIndex } from './list-plan.js';
import { rowToRecord, type Codec } from './records.js';

type Eb = ExpressionBuilder<any, any>;

/** The statements of one page, ready to run. */
export interface ListStatements {
  rows: CompiledQuery;
  /** The count of every match, when the query asks for the total. */
  count?: CompiledQuery;
}

/** SQL text whose parameters are the plan's values at these indices, in order. */
interface Template {
  sql: string;
  params: number[];
}

/** An engine's search index in list queries: the value to bind for a folded needle, and the SQL selecting the rows that may hold it (given that value and the folded needle). */
export interface SearchIndexSql extends SearchIndex {
  candidates(table: string, fields: string[], query: unknown, folded: unknown): RawBuilder<SqlBool>;
  /** The candidates' row keys as column `r`, ascending from past `from` if given, streamed rather than collected first. */
  ordered(table: string, fields: string[], query: unknown, folded: unknown, from?: unknown): RawBuilder<unknown>;
}

/** The search index of each query builder (engine) that has one. */
const searchIndexes = new WeakMap<Kysely<any>, SearchIndexSql>();

/** Lists built with `db` narrow `q=`, icontains and istartsWith on search fields with `index` (without one, they scan). */
export function useSearchIndex(db: Kysely<any>, index: SearchIndexSql): void {
  searchIndexes.set(db, index);
}

/** The SQL of each list shape seen, per query builder (engine). */
const templates = new WeakMap<Kysely<any>, Map<string, { rows: Template; count?: Template }>>();
/** Shapes vary with the filters a client combines; enough for every shape an app really uses. */
const MAX_SHAPES = 500;

/**
 * The SQL of one page of a list (and of the optional count), in `db`'s dialect. Building and
 * compiling a query with Kysely costs more than running it on SQLite, so the SQL text is built once
 * per query shape (table, conditions, order: see planList) and only the values are bound per request.
 */
export function compileListQuery(db: Kysely<any>, resource: ResourceDefinition, query: ListQuery, codec: Codec): ListStatements {
  const { shape, values } = planList(resource, query, codec, searchIndexes.get(db));
  let cache = templates.get(db);
  if (!cache) templates.set(db, (cache = new Map()));
  const key = JSON.stringify(shape);
  let compiled = cache.get(key);
  if (!compiled) {
    if (cache.size >= MAX_SHAPES) cache.clear();
    compiled = render(db, shape);
    cache.set(key, compiled);
  }
  const bound = (t: Template) => CompiledQuery.raw(t.sql, t.params.map((i) => values[i]));
  return { rows: bound(compiled.rows), count: compiled.count && bound(compiled.count) };
}

/** A parameter's place in the rendered SQL: Kysely binds it like any value, and it names the plan's value. */
class Slot {
  constructor(readonly index: number) {}
}

function render(db: Kysely<any>, shape: ListShape): { rows: Template; count?: Template } {
  const walk = candidateWalk(db, shape);
  if (walk) return { rows: walk, count: renderCount(db, shape) };
  let rows = db
    .selectFrom(shape.table)
    .selectAll()
    .where((eb) => eb.and([...shape.match, ...(shape.after ? [shape.after] : [])].map((c) => expr(eb, c, shape.table, db))));
  for (const [column, desc] of shape.order) {
    rows = rows.orderBy(column, (ob) => (desc ? ob.desc() : ob.asc())[desc === !shape.nullsLargest ? 'nullsLast' : 'nullsFirst']());
  }
  rows = rows.limit(new Slot(shape.limit) as unknown as number);
  if (shape.offset !== undefined) rows = rows.offset(new Slot(shape.offset) as unknown as number);
  return { rows: template(rows.compile()), count: renderCount(db, shape) };
}

function renderCount(db: Kysely<any>, shape: ListShape): Template | undefined {
  if (!shape.withTotal) return undefined;
  return template(db.selectFrom(shape.table).select((eb) => eb.fn.countAll().as('n')).where((eb) => eb.and(shape.match.map((c) => expr(eb, c, shape.table, db)))).compile());
}

/**
 * A page in id order (the default) of a search: the search index's candidates walked in id order,
 * each joined to its row and tested, stopping at the limit. Testing the rows of every candidate
 * first, as an `IN` does, costs milliseconds when a term is common (50k candidates for `mps` over
 * 1M rows: 7 ms, against 0.3 ms walked). Undefined for other pages, which test every candidate.
 */
function candidateWalk(db: Kysely<any>, shape: ListShape): Template | undefined {
  const index = searchIndexes.get(db);
  const lead = shape.match.find((c): c is Extract<Condition, { candidates: string[] }> => 'candidates' in c && !!c.rowid);
  // Only pages ascending (SQLite sorts a descending merge again), and a keyset position only as one id
  // the walk starts after (else it would test every candidate before the position).
  if (!index || !lead || (shape.after && shape.afterId === undefined) || shape.order.length !== 1 || shape.order[0][0] !== 'id' || shape.order[0][1]) return undefined;
  const from = shape.afterId === undefined ? undefined : new Slot(shape.afterId);
  const ordered = index.ordered(shape.table, lead.candidates, new Slot(lead.value), new Slot(lead.folded), from);
  const rest = [...(shape.after ? [shape.after] : []), ...shape.match.filter((c) => c !== lead)];
  let rows = db
    .selectFrom(ordered.as('s'))
    .innerJoin(shape.table, (j) => j.onRef(sql.ref(`${shape.table}.rowid`) as any, '=', 's.r'))
    .selectAll(shape.table)
    .where((eb) => eb.and(rest.map((c) => expr(eb, c, shape.table, db))))
    .orderBy('s.r', 'asc')
    .limit(new Slot(shape.limit) as unknown as number);
  if (shape.offset !== undefined) rows = rows.offset(new Slot(shape.offset) as unknown as number);
  return template(rows.compile());
}

function template(query: CompiledQuery): Template {
  return { sql: query.sql, params: query.parameters.map((p) => (p as Slot).index) };
}

function expr(eb: Eb, c: Condition, table: string, db: Kysely<any>): Expression<SqlBool> {
  if ('and' in c) return eb.and(c.and.map((x) => expr(eb, x, table, db)));
  if ('or' in c) return eb.or(c.or.map((x) => expr(eb, x, table, db)));
  if ('candidates' in c) return searchIndexes.get(db)!.candidates(table, c.candidates, new Slot(c.value), new Slot(c.folded));
  const ref = eb.ref(c.column);
  switch (c.op) {
    case 'is':
    case 'is not':
      return eb(ref, c.op, null);
    case 'in':
      return eb(ref, 'in', c.values.map((i) => new Slot(i)));
    case 'like':
      return sql<SqlBool>`${ref} LIKE ${new Slot(c.value)} ESCAPE '\\'`;
    case 'ilike':
      // Both sides folded by the engine's rw_fold (core/fold.ts), so every engine folds alike.
      return sql<SqlBool>`${sql.raw(FOLD_FUNCTION)}(${ref}) LIKE ${sql.raw(FOLD_FUNCTION)}(${new Slot(c.value)}) ESCAPE '\\'`;
    default:
      return eb(ref, c.op, new Slot(c.value));
  }
}

/** The page a list query's rows make: at most `limit` records in the requested order, and whether more follow. */
export function pageOf(resource: ResourceDefinition, rows: Record<string, unknown>[], query: ListQuery, codec: Codec, total?: number): Page {
  const records = rows.slice(0, query.limit).map((row) => rowToRecord(resource, row, codec));
  // A backwards page was read in reverse order (see planList).
  if (query.after?.backwards) records.reverse();
  return { records, hasMore: rows.length > query.limit, total };
}
