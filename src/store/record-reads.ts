import type { CompiledQuery } from 'kysely';
import type { RecordId, StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';
import { fixedShapeQuery } from './fixed-shape.js';
import { step, type Flow } from './flow.js';
import type { ListQuery, Page } from './list-query.js';
import { compileListQuery, pageOf } from './list-sql.js';
import { rowToRecord } from './records.js';
import type { Statements } from './statements.js';

/** One record by id, or undefined. */
export function* getRecord(s: Statements, resource: ResourceDefinition, id: RecordId): Flow<StoredRecord | undefined> {
  const [row] = yield* step(s.rows(selectById(s, resource, id)));
  return row ? rowToRecord(resource, row, s.codec) : undefined;
}

/** Read by id is the hottest query: of a fixed shape per resource, built once. */
function selectById(s: Statements, resource: ResourceDefinition, id: RecordId): CompiledQuery {
  return fixedShapeQuery(s.sql, `record by id: ${resource.name}`, [id], () => s.sql.selectFrom(resource.name).selectAll().where('id', '=', id));
}

/** One page of a list, and the total when asked for. */
export function* listRecords(s: Statements, resource: ResourceDefinition, query: ListQuery): Flow<Page> {
  const { rows, count } = compileListQuery(s.sql, resource, query, s.codec);
  const found = yield* step(s.rows(rows));
  const total = count ? Number((yield* step(s.rows(count)))[0]!.n) : undefined;
  return pageOf(resource, found, query, s.codec, total);
}
