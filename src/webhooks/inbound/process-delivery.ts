import type { AttemptEffects, Delivery } from '../../store/inbox.js';
import { receivedEvent } from './actions/emit.js';
import { messageView } from './actions/message-view.js';
import { recordFromMessage } from './actions/store.js';
import { normalize } from './providers/index.js';
import type { Source } from './sources.js';

/**
 * The effects of a delivery's asynchronous actions: the record `store` creates (validated) and
 * the event `emit` appends. Re-reads the stored raw body, so it works the same after a restart.
 * Throws PayloadError or ValidationError when the delivery can never be processed.
 */
export async function effectsOf(source: Source, delivery: Delivery): Promise<AttemptEffects> {
  const message = await normalize(source.provider, delivery.contentType, delivery.body, source.maxJsonDepth);
  const effects: AttemptEffects = {};
  if (source.store) {
    const view = messageView(message, { receivedAt: delivery.receivedAt, eventId: delivery.eventId });
    effects.records = [{ resource: source.store.resource, data: recordFromMessage(source.store, view) }];
  }
  if (source.emit) effects.events = [receivedEvent(delivery, message, source.recordLimit)];
  return effects;
}
