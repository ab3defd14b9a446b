import { sql } from 'kysely';
import { step, type Flow } from './flow.js';
import type { SchemaLoss } from './schema-plan.js';
import type { Statements } from './statements.js';

/**
 * What an allowed destructive change is about to delete, counted before it runs, in words for a
 * warning at start-up: the records whose value of a field goes (those that had one), or every
 * record of a table recreated for a new id type.
 */
export function* describeLoss(s: Statements, loss: SchemaLoss): Flow<string> {
  let query = s.sql.selectFrom(loss.resource).select(sql<number>`count(*)`.as('n'));
  if (loss.kind === 'field') query = query.where(loss.field, 'is not', null);
  const [row] = yield* step(s.rows(query.compile()));
  const n = Number(row?.n ?? 0);
  return loss.kind === 'field'
    ? `dropped ${loss.resource}.${loss.field} (${loss.why}; allowDestructiveMigrations is set): ${n === 0 ? 'no record had a value' : n === 1 ? '1 record loses its value' : `${n} records lose their values`}`
    : `recreated table ${loss.resource} empty (${loss.why}; allowDestructiveMigrations is set): ${n === 0 ? 'it had no records' : n === 1 ? 'its 1 record is deleted' : `its ${n} records are deleted`}`;
}
