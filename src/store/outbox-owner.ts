import { isEventVisible, type EventVisibility } from './event-query.js';
import type { Audience, OwnerAccess, WebhookEndpoint } from './outbox.js';
import type { Row } from './statements.js';

/** The owner_access column's value. */
export function ownerAccessColumn(access: OwnerAccess | null): string | null {
  return access ? JSON.stringify(access) : null;
}

/** The owner_access column read back (NULL, or written by an older version: none). */
export function toOwnerAccess(value: unknown): OwnerAccess | null {
  return typeof value === 'string' && value ? (JSON.parse(value) as OwnerAccess) : null;
}

/** Each endpoint's visibility for one derive pass, worked out once per endpoint rather than once per event. */
export function audiences(endpoints: WebhookEndpoint[], audience: Audience | undefined): Map<string, EventVisibility | undefined> {
  return new Map(endpoints.map((e) => [e.id, audience && e.ownerAccess ? audience(e) : undefined]));
}

/** True when an endpoint whose visibility is `visible` may receive the event of log row `row` (resource and owner columns). */
export function mayReceive(visible: EventVisibility | undefined, row: Row): boolean {
  return isEventVisible(visible, { resource: row.resource, owner: row.owner ?? null });
}
