import type { RecordId } from './record.js';

/** What happened to a record; events are named `<resource>.<action>`. */
export type ChangeAction = 'created' | 'updated' | 'deleted';

/** The event name for a change, e.g. `characters.created`. */
export function eventType(resource: string, action: ChangeAction): string {
  return `${resource}.${action}`;
}

/** One entry of the event log, as stored and as served by `GET /events`. */
export interface EventRecord {
  /** Global, increasing (gap-tolerant) position in the log. */
  seq: number;
  /** Stable public id, `evt_…`. */
  id: string;
  type: string;
  resource: string;
  recordId: RecordId | null;
  /** The record's representation after the change (for a delete: the last one before it). */
  data: Record<string, unknown>;
  createdAt: string;
  /** Who owns the record the event is about (owner access rules apply to the log too); null when nobody does. */
  owner: string | null;
}

/**
 * True when an event type matches one of `patterns`: an exact type, `*` for every type, or a
 * prefix ending in `.*` (`characters.*` matches `characters.created`, `webhook.*` every received webhook).
 */
export function matchesEventType(patterns: readonly string[] | null, type: string): boolean {
  if (!patterns) return true;
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}
