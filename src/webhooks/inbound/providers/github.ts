import { FORM_TYPE, isJsonContent, JSON_TYPE, parseForm, parseJson } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { headerValue } from '../verifiers/headers.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { sampleTestEvent } from './samples.js';

const G = 'github';

/** GitHub webhooks: JSON, or a form whose `payload` field holds the JSON ("application/x-www-form-urlencoded" option). */
export const github: ProviderDescriptor = {
  name: G,
  kind: 'event',
  schemes: ['github'],
  contentTypes: [JSON_TYPE, FORM_TYPE],
  normalize: (contentType, rawBody, maxDepth) => {
    if (isJsonContent(contentType)) return { kind: 'event', payload: parseJson(rawBody, G, maxDepth) };
    const payload = parseForm(contentType, rawBody).fields.payload?.[0];
    if (payload === undefined) throw new PayloadError('a form-encoded GitHub delivery needs a payload field', G);
    return { kind: 'event', payload: parseJson(Buffer.from(payload), G, maxDepth) };
  },
  eventId: (headers) => headerValue(headers, 'x-github-delivery'),
  eventIdInHeaders: true,
  sample: ({ text }) => sampleTestEvent(text),
};
