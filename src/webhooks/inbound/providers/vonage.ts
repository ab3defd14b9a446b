import type { EncodedBody } from '../payload/form-body.js';
import { FORM_TYPE, JSON_TYPE, parsePayload } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { isObject, str } from './email-helpers.js';
import { pick } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { jsonBody, type SampleSms } from './samples.js';
import type { NormalizedSms } from './types.js';

/**
 * Vonage inbound SMS (SMS API: msisdn, to, text, messageId) or Messages API
 * (from, to, text, message_uuid; `from` may be an object with `number`) → normalized SMS.
 */
export function normalizeVonage(fields: Record<string, unknown>): NormalizedSms {
  const fromField = isObject(fields.from) ? fields.from.number : fields.from;
  const toField = isObject(fields.to) ? fields.to.number : fields.to;
  const from = str(fields.msisdn) || str(fromField);
  if (!from) throw new PayloadError('a Vonage inbound SMS needs msisdn (SMS API) or from (Messages API)', 'vonage');
  const message = isObject(fields.message) && isObject(fields.message.content) ? fields.message.content.text : undefined;
  return {
    from,
    to: str(toField),
    text: str(fields.text) || str(message),
    messageId: str(fields.messageId) || str(fields.message_uuid) || null,
  };
}

/** A Vonage inbound SMS (SMS API, JSON). */
export function sampleVonageSms(o: SampleSms = {}): EncodedBody & { params: Record<string, string> } {
  const params: Record<string, string> = {
    msisdn: o.from ?? '447700900001', to: o.to ?? '447700900000', messageId: o.messageId ?? '0A0000000123ABCD1',
    text: o.text ?? 'Who is Homer?', type: 'text', keyword: (o.text ?? 'WHO').split(/\s+/)[0]!.toUpperCase(),
    'api-key': 'abcd1234', 'message-timestamp': new Date().toISOString().replace('T', ' ').slice(0, 19),
  };
  return { ...jsonBody(params), params };
}

/** Vonage inbound SMS (SMS API or Messages API), JSON or form; it takes no reply in the webhook answer. */
export const vonage: ProviderDescriptor = {
  name: 'vonage',
  kind: 'sms',
  schemes: ['header', 'basic', 'vonage-signature'],
  contentTypes: [JSON_TYPE, FORM_TYPE],
  normalize: (contentType, rawBody, maxDepth) => {
    const fields = parsePayload(contentType, rawBody, maxDepth);
    if (!isObject(fields)) throw new PayloadError('a Vonage webhook must be a form or a JSON object', 'vonage');
    return { kind: 'sms', sms: normalizeVonage(fields) };
  },
  eventId: (_headers, payload) => pick(payload, 'messageId', 'message_uuid', 'message-id'),
  sample: ({ text }) => sampleVonageSms({ text }),
  warnings: (source) =>
    source.replies ? [`webhooks.sources.${source.name}: Vonage takes no reply in its webhook response; deliveries are answered 200 and the reply is not sent`] : [],
};
