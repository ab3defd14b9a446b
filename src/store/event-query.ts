import type { ExpressionBuilder, Kysely } from 'kysely';
import type { EventRecord } from '../core/events.js';
import { step, type Flow } from './flow.js';
import type { Row, Statements } from './statements.js';

/**
 * The part of the event log a reader may see (owner rules apply to the log too): every event of
 * `resources`, and the events of `owned.resources` whose record `owned.owner` owns.
 */
export interface EventVisibility {
  resources: string[];
  owned?: { owner: string; resources: string[] };
}

/** A page of the event log: after a position, optionally of some types, only what a reader may see (absent: all). */
export interface EventQuery {
  after?: number;
  /** Newest first: positions before this one (absent: from the newest). */
  before?: number;
  /** Read the log backwards, newest first, from `before` (`after` is ignored). */
  newestFirst?: boolean;
  limit: number;
  types?: string[];
  /** Only events of these collections. */
  resources?: string[];
  /** Only events about the record with this id (as the log keeps it: text). */
  recordId?: string;
  visible?: EventVisibility;
}

/**
 * The SELECT for a page of the event log, the same for every engine. The reader's visibility is
 * part of the WHERE, so a page is full of visible events and a cursor never stalls on hidden ones.
 * `upTo` caps the positions read (the engine's event horizon).
 */
export function buildEventQuery(db: Kysely<any>, query: EventQuery, upTo?: number) {
  let q = db.selectFrom('_rw_events').selectAll();
  if (!query.newestFirst) q = q.where('seq', '>', query.after ?? 0);
  else if (query.before !== undefined) q = q.where('seq', '<', query.before);
  if (upTo !== undefined) q = q.where('seq', '<=', upTo);
  if (query.types?.length) q = q.where('type', 'in', query.types);
  if (query.resources?.length) q = q.where('resource', 'in', query.resources);
  if (query.recordId !== undefined) q = q.where('record_id', '=', query.recordId);
  if (query.visible) q = q.where((eb) => visibleTo(eb, query.visible!));
  return q.orderBy('seq', query.newestFirst ? 'desc' : 'asc').limit(query.limit);
}

/** The SELECT for one event by its public id, when the reader may see it. */
export function buildEventByIdQuery(db: Kysely<any>, id: string, visible?: EventVisibility) {
  const q = db.selectFrom('_rw_events').selectAll().where('id', '=', id);
  return visible ? q.where((eb) => visibleTo(eb, visible)) : q;
}

function visibleTo(eb: ExpressionBuilder<any, any>, v: EventVisibility) {
  const parts = [];
  if (v.resources.length) parts.push(eb('resource', 'in', v.resources));
  if (v.owned?.resources.length) parts.push(eb.and([eb('resource', 'in', v.owned.resources), eb('owner', '=', v.owned.owner)]));
  return eb.or(parts);
}

/** A page of the event log, oldest first (or newest first), up to `upTo` (see Engine.eventHorizon). */
export function* listEvents(s: Statements, query: EventQuery, upTo: number | undefined): Flow<EventRecord[]> {
  return (yield* step(s.rows(buildEventQuery(s.sql, query, upTo).compile()))).map(toEvent);
}

/** One event by its public id, when `visible` lets the reader see it. */
export function* getEvent(s: Statements, id: string, visible?: EventVisibility): Flow<EventRecord | undefined> {
  const [row] = yield* step(s.rows(buildEventByIdQuery(s.sql, id, visible).compile()));
  return row ? toEvent(row) : undefined;
}

/** Maps an event log row to an EventRecord. */
export function toEvent(row: Row): EventRecord {
  const data = JSON.parse(row.data);
  return { seq: Number(row.seq), id: row.id, type: row.type, resource: row.resource, recordId: data.id ?? row.record_id, data, createdAt: row.created_at, owner: row.owner ?? null };
}

/**
 * The same rule as the SQL `visibleTo`, for an event already in memory: the live stream hands one
 * read of the log to many readers, so each is filtered here instead of with a query of its own.
 * No `visible` (an admin) sees everything.
 */
export function isEventVisible(visible: EventVisibility | undefined, event: Pick<EventRecord, 'resource' | 'owner'>): boolean {
  if (!visible) return true;
  if (visible.resources.includes(event.resource)) return true;
  return !!visible.owned && event.owner === visible.owned.owner && visible.owned.resources.includes(event.resource);
}
