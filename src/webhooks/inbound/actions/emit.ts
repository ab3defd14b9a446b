import { RecordTooLargeError } from '../../../core/errors.js';
import { formatBytes, jsonSize } from '../../../core/json-size.js';
import type { AttemptEffects } from '../../../store/inbox.js';
import type { NormalizeResult } from '../providers/index.js';

/** The event type a delivery of a source becomes: `webhook.<source>.received`. */
export function receivedEventType(source: string): string {
  return `webhook.${source}.received`;
}

/**
 * The event a delivery becomes in the event log. Its `resource` is the source's inbox, so the
 * event's `record` link (`/webhooks/<source>/events/<id>`) leads to the stored delivery. An event
 * larger than `recordLimit` is a RecordTooLargeError (the delivery can never be processed).
 */
export function receivedEvent(delivery: { id: string; source: string; eventId: string; receivedAt: string }, message: NormalizeResult, recordLimit = Infinity): NonNullable<AttemptEffects['events']>[number] {
  const content = message.kind === 'email' ? { email: message.email } : message.kind === 'sms' ? { sms: message.sms } : { payload: message.payload };
  const data = { id: delivery.id, source: delivery.source, eventId: delivery.eventId, receivedAt: delivery.receivedAt, kind: message.kind, ...content };
  // Normalizing can make a payload larger than its body (escapes, base64 attachments): bounded as a record is.
  const size = recordLimit === Infinity ? 0 : jsonSize(data);
  if (size > recordLimit) {
    throw new RecordTooLargeError(`the ${receivedEventType(delivery.source)} event would be ${formatBytes(size)} (${size} bytes) as JSON, more than an event may be (server.recordLimit: ${formatBytes(recordLimit)})`);
  }
  return { type: receivedEventType(delivery.source), resource: `webhooks/${delivery.source}/events`, recordId: delivery.id, data };
}
