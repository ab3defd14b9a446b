import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

/** SQL texts by query builder (engine), then by shape. */
const texts = new WeakMap<object, Map<string, string>>();

/**
 * A query whose SQL text depends only on `shape` (tables, columns, the conditions' form), never on the
 * values: Kysely builds it the first time per query builder (engine) and shape, and every later call
 * binds its own `values` to that text. On the paths taken per request or per commit, building a small
 * query with Kysely cost about as much as running it. The text is kept only when Kysely bound exactly
 * `values`, in order, so a kept text means what Kysely would have built from any values; otherwise each
 * call is built afresh (correct, only slower).
 */
export function fixedShapeQuery(sql: Kysely<any>, shape: string, values: unknown[], build: () => Compilable): CompiledQuery {
  let byShape = texts.get(sql);
  if (!byShape) texts.set(sql, (byShape = new Map()));
  const text = byShape.get(shape);
  // Kysely leaves out an insert's undefined values: such a call has a shape of its own, built afresh.
  if (values.includes(undefined)) return build().compile();
  if (text !== undefined) return CompiledQuery.raw(text, values);
  const query = build().compile();
  if (query.parameters.length === values.length && query.parameters.every((p, i) => p === values[i])) byShape.set(shape, query.sql);
  return query;
}
