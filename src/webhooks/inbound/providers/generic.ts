import { FORM_TYPE, JSON_TYPE, MULTIPART_TYPE } from '../payload/parse-payload.js';
import { headerValue } from '../verifiers/headers.js';
import { asEvent } from './as-event.js';
import { pick } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { sampleTestEvent } from './samples.js';

/** Any other sender: JSON or forms, checked with a shared header token or HTTP Basic credentials. */
export const generic: ProviderDescriptor = {
  name: 'generic',
  kind: 'event',
  schemes: ['header', 'basic'],
  contentTypes: [JSON_TYPE, FORM_TYPE, MULTIPART_TYPE],
  normalize: asEvent,
  eventId: (headers, payload) => headerValue(headers, 'idempotency-key') ?? headerValue(headers, 'webhook-id') ?? pick(payload, 'id'),
  sample: ({ text }) => sampleTestEvent(text),
};
