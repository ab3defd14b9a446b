import { matchesEventFilter, type EventFilter } from '../core/event-filter.js';
import type { WebhookEndpoint } from './outbox.js';
import type { Row } from './statements.js';

/*
 * An endpoint's event filter (core/event-filter.ts) in the outbox: kept as JSON text in
 * `_rw_hook_endpoints.event_filter` (its values already typed, so deriving parses nothing but the
 * JSON), and applied when deliveries are derived: an event the filter refuses gets no delivery.
 */

/** The column's value for a filter (NULL: every event). */
export function filterColumn(filter: EventFilter | null | undefined): string | null {
  return filter ? JSON.stringify(filter) : null;
}

/** The filter a column holds (older databases have no value: every event). */
export function filterOf(text: unknown): EventFilter | null {
  return typeof text === 'string' && text ? (JSON.parse(text) as EventFilter) : null;
}

/**
 * The event columns deriving reads: owned endpoints need the event's resource and owner, and
 * filters its record and data too, read only when some endpoint has a filter.
 */
export function derivedEventColumns(endpoints: WebhookEndpoint[]): string[] {
  const base = ['seq', 'id', 'type', 'resource', 'owner'];
  return endpoints.some((e) => e.filter) ? [...base, 'record_id', 'data'] : base;
}

/**
 * A test of whether an endpoint wants an event row of the log. Each row's data is parsed at most
 * once, and only when some filter looks at fields, however many endpoints test it.
 */
export function endpointFilterTest(): (endpoint: WebhookEndpoint, row: Row) => boolean {
  const parsed = new WeakMap<Row, Record<string, unknown>>();
  return (endpoint, row) => {
    if (!endpoint.filter) return true;
    const dataOf = () => {
      let data = parsed.get(row);
      if (!data) parsed.set(row, (data = JSON.parse(row.data) as Record<string, unknown>));
      return data;
    };
    return matchesEventFilter(endpoint.filter, { resource: row.resource, recordId: row.record_id, get data() { return dataOf(); } });
  };
}
