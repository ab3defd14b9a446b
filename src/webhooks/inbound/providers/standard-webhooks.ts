import { JSON_TYPE } from '../payload/parse-payload.js';
import { headerValue } from '../verifiers/headers.js';
import { asEvent } from './as-event.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { sampleTestEvent } from './samples.js';

/** Any sender of Standard Webhooks (also Svix's `svix-*` headers): signed JSON events. */
export const standardWebhooks: ProviderDescriptor = {
  name: 'standard-webhooks',
  kind: 'event',
  schemes: ['standard-webhooks'],
  contentTypes: [JSON_TYPE],
  normalize: asEvent,
  eventId: (headers) => headerValue(headers, 'webhook-id') ?? headerValue(headers, 'svix-id'),
  eventIdInHeaders: true,
  sample: ({ text }) => sampleTestEvent(text),
};
