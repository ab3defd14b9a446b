import type { Link } from '../../../http/hal.js';
import type { OutboundAttempt, OutboundDelivery } from '../../../store/outbox.js';
import { endpointPath } from './endpoint-view.js';

/** The path of an endpoint's deliveries, or of one of them. */
export const deliveriesPath = (endpointId: string) => `${endpointPath(endpointId)}/deliveries`;
export const deliveryPath = (d: Pick<OutboundDelivery, 'endpointId' | 'id'>) => `${deliveriesPath(d.endpointId)}/${encodeURIComponent(d.id)}`;

/** The HAL representation of a delivery: where it stands, and links to its endpoint, its event and its attempts. */
export function halDelivery(d: OutboundDelivery): Record<string, unknown> {
  const self = deliveryPath(d);
  const links: Record<string, Link> = {
    self: { href: self },
    collection: { href: deliveriesPath(d.endpointId) },
    endpoint: { href: endpointPath(d.endpointId) },
    event: { href: `/events/${encodeURIComponent(d.eventId)}`, title: 'The event sent (the body of every attempt)' },
    attempts: { href: `${self}/attempts`, title: 'The attempts made; POST here to redeliver now' },
  };
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt,
    lastAttemptAt: d.lastAttemptAt,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    _links: links,
  };
}

/** The HAL representation of one attempt at a delivery. */
export function halAttempt(d: Pick<OutboundDelivery, 'endpointId' | 'id'>, a: OutboundAttempt): Record<string, unknown> {
  const delivery = deliveryPath(d);
  return {
    number: a.number,
    trigger: a.trigger,
    startedAt: a.startedAt,
    statusCode: a.statusCode,
    latencyMs: a.latencyMs,
    responseExcerpt: a.responseExcerpt,
    error: a.error,
    node: a.node,
    _links: { self: { href: `${delivery}/attempts/${a.number}` }, delivery: { href: delivery } },
  };
}
