import { randomUUID } from 'node:crypto';
import { JSON_TYPE } from '../payload/parse-payload.js';
import { asEvent } from './as-event.js';
import { pick } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { compactJsonBody } from './samples.js';

/** Stripe events: JSON signed with Stripe-Signature; the event's `id` identifies it. */
export const stripe: ProviderDescriptor = {
  name: 'stripe',
  kind: 'event',
  schemes: ['stripe'],
  contentTypes: [JSON_TYPE],
  normalize: asEvent,
  eventId: (_headers, payload) => pick(payload, 'id'),
  sample: ({ text }) =>
    compactJsonBody({ id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', type: 'restwell.test', created: Math.floor(Date.now() / 1000), data: { object: { text: text ?? 'Hello' } } }),
};
