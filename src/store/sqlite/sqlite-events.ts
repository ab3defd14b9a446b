import { CompiledQuery } from 'kysely';
import type { EventRow } from '../records.js';
import type { SqliteStatements } from './sqlite-statements.js';

/**
 * Appends an event row. SQLite has one writer at a time, so positions (`seq`, AUTOINCREMENT) are
 * drawn in commit order and a reader needs no horizon to never skip one.
 */
export function appendEvent(s: SqliteStatements, e: EventRow): void {
  s.run(
    CompiledQuery.raw('INSERT INTO _rw_events (id, type, resource, record_id, data, created_at, owner) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      e.id, e.type, e.resource, e.record_id, e.data, e.created_at, e.owner,
    ]),
  );
}
