import { CompiledQuery } from 'kysely';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import type { ListQuery, Page } from './list-query.js';
import { buildListQuery, pageOf } from './list-sql.js';
import { rowToRecord } from './records.js';
import type { Statements } from './statements.js';

/** One record by id, or undefined. */
export function* getRecord(s: Statements, resource: ResourceDefinition, id: RecordId): Flow<StoredRecord | undefined> {
  const [row] = yield* step(s.rows(selectById(s, resource, id)));
  return row ? rowToRecord(resource, row, s.codec) : undefined;
}

/** The SQL of a read by id, per query builder (engine) and resource. */
const byIdSql = new WeakMap<object, Map<string, string>>();

/** Read by id is the hottest query: its SQL is built once per resource, not once per request. */
function selectById(s: Statements, resource: ResourceDefinition, id: RecordId): CompiledQuery {
  let sqls = byIdSql.get(s.sql);
  if (!sqls) byIdSql.set(s.sql, (sqls = new Map()));
  let sql = sqls.get(resource.name);
  if (sql === undefined) {
    sql = s.sql.selectFrom(resource.name).selectAll().where('id', '=', id).compile().sql;
    sqls.set(resource.name, sql);
  }
  return CompiledQuery.raw(sql, [id]);
}

/** One page of a list, and the total when asked for. */
export function* listRecords(s: Statements, resource: ResourceDefinition, query: ListQuery): Flow<Page> {
  const { rows, count } = buildListQuery(s.sql, resource, query, s.codec);
  const found = yield* step(s.rows(rows.compile()));
  const total = count ? Number((yield* step(s.rows(count.compile())))[0]!.n) : undefined;
  return pageOf(resource, found, query, s.codec, total);
}
