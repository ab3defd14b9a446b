import { mediaType } from './parse-payload.js';
import type { ProviderName } from './provider-name.js';

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/**
 * Media types each provider may send. Anything else is answered 415 before it is stored,
 * since it cannot be a genuine delivery from that provider.
 */
export const CONTENT_TYPES: Readonly<Record<ProviderName, readonly string[]>> = {
  postmark: [JSON_TYPE],
  sendgrid: [MULTIPART],
  mailgun: [FORM, MULTIPART, JSON_TYPE], // routes post forms; event webhooks post JSON
  cloudmailin: [JSON_TYPE, MULTIPART],
  twilio: [FORM, JSON_TYPE], // JSON only with bodySHA256 in the URL
  vonage: [JSON_TYPE, FORM],
  'standard-webhooks': [JSON_TYPE],
  github: [JSON_TYPE, FORM], // GitHub's "application/x-www-form-urlencoded" option posts payload=<json>
  stripe: [JSON_TYPE],
  generic: [JSON_TYPE, FORM, MULTIPART],
};

/** True when `provider` may send a body with this Content-Type (parameters such as charset ignored). */
export function acceptsContentType(provider: ProviderName, contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  const allowed = CONTENT_TYPES[provider] ?? [];
  // `application/*+json` variants (e.g. cloudevents) count as JSON wherever JSON is accepted.
  const jsonish = type.startsWith('application/') && type.endsWith('+json');
  return allowed.includes(type) || (jsonish && allowed.includes(JSON_TYPE));
}
