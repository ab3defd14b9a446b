import type { AttemptEffects } from '../../../store/inbox.js';
import type { NormalizeResult } from '../providers/index.js';

/** The event type a delivery of a source becomes: `webhook.<source>.received`. */
export function receivedEventType(source: string): string {
  return `webhook.${source}.received`;
}

/**
 * The event a delivery becomes in the event log. Its `resource` is the source's inbox, so the
 * event's `record` link (`/webhooks/<source>/events/<id>`) leads to the stored delivery.
 */
export function receivedEvent(delivery: { id: string; source: string; eventId: string; receivedAt: string }, message: NormalizeResult): NonNullable<AttemptEffects['events']>[number] {
  const content = message.kind === 'email' ? { email: message.email } : message.kind === 'sms' ? { sms: message.sms } : { payload: message.payload };
  return {
    type: receivedEventType(delivery.source),
    resource: `webhooks/${delivery.source}/events`,
    recordId: delivery.id,
    data: { id: delivery.id, source: delivery.source, eventId: delivery.eventId, receivedAt: delivery.receivedAt, kind: message.kind, ...content },
  };
}
