import { DEFAULTS } from '../../../config/defaults.js';
import { normalizeCloudmailin, normalizeCloudmailinMultipart } from './cloudmailin.js';
import { acceptsContentType, CONTENT_TYPES } from './content-types.js';
import { isObject } from './email-helpers.js';
import { normalizeMailgun } from './mailgun.js';
import { firstValues, isJsonType, mediaType, parseForm, parseJson } from './parse-payload.js';
import { normalizePostmark } from './postmark.js';
import type { ProviderName } from './provider-name.js';
import { normalizeSendgrid } from './sendgrid.js';
import { normalizeTwilio, normalizeVonage } from './sms.js';
import { PayloadError, type NormalizeResult } from './types.js';

/** JSON body, or form fields (first values) for form bodies. */
function fieldsOf(provider: ProviderName, contentType: string, rawBody: Buffer, maxDepth: number): unknown {
  if (isJsonType(mediaType(contentType))) return parseJson(rawBody, provider, maxDepth);
  return firstValues(parseForm(contentType, rawBody).fields);
}

function normalizeSync(provider: ProviderName, contentType: string, rawBody: Buffer, maxDepth: number): NormalizeResult {
  const type = mediaType(contentType);
  const json = isJsonType(type);
  switch (provider) {
    case 'postmark':
      return { kind: 'email', email: normalizePostmark(parseJson(rawBody, provider, maxDepth)) };
    case 'sendgrid':
      return { kind: 'email', email: normalizeSendgrid(contentType, rawBody) };
    case 'mailgun':
      // JSON from Mailgun is an event webhook (delivered, opened, …), not an inbound message.
      return json ? { kind: 'event', payload: parseJson(rawBody, provider, maxDepth) } : { kind: 'email', email: normalizeMailgun(contentType, rawBody) };
    case 'cloudmailin':
      return { kind: 'email', email: json ? normalizeCloudmailin(parseJson(rawBody, provider, maxDepth)) : normalizeCloudmailinMultipart(contentType, rawBody) };
    case 'twilio': {
      const fields = fieldsOf(provider, contentType, rawBody, maxDepth);
      if (!isObject(fields)) throw new PayloadError('a Twilio webhook must be a form or a JSON object', provider);
      // JSON posts (bodySHA256) are usually not messages; only treat them as SMS when they look like one.
      if (json && !('From' in fields && 'Body' in fields)) return { kind: 'event', payload: fields };
      return { kind: 'sms', sms: normalizeTwilio(fields) };
    }
    case 'vonage': {
      const fields = fieldsOf(provider, contentType, rawBody, maxDepth);
      if (!isObject(fields)) throw new PayloadError('a Vonage webhook must be a form or a JSON object', provider);
      return { kind: 'sms', sms: normalizeVonage(fields) };
    }
    case 'github':
      if (!json) {
        // "application/x-www-form-urlencoded" deliveries carry the JSON in a `payload` field.
        const payload = parseForm(contentType, rawBody).fields.payload?.[0];
        if (payload === undefined) throw new PayloadError('a form-encoded GitHub delivery needs a payload field', provider);
        return { kind: 'event', payload: parseJson(Buffer.from(payload), provider, maxDepth) };
      }
      return { kind: 'event', payload: parseJson(rawBody, provider, maxDepth) };
    case 'standard-webhooks':
    case 'stripe':
    case 'generic':
      return { kind: 'event', payload: fieldsOf(provider, contentType, rawBody, maxDepth) };
    default:
      throw new PayloadError(`unknown provider "${String(provider)}"`);
  }
}

/**
 * Turns a verified delivery into a normalized e-mail, SMS or event payload.
 * Never throws anything but {@link PayloadError} for bad input: a body of a content type the provider
 * never sends, malformed JSON/forms, JSON nesting deeper than `maxDepth`, or a payload missing the
 * fields that identify the format.
 */
export async function normalize(provider: ProviderName, contentType: string | undefined, rawBody: Buffer, maxDepth: number = DEFAULTS.server.maxJsonDepth): Promise<NormalizeResult> {
  const ct = contentType ?? '';
  if (!acceptsContentType(provider, ct)) {
    const allowed = (CONTENT_TYPES[provider] ?? []).join(', ');
    throw new PayloadError(`${provider} sends ${allowed}; got ${mediaType(ct) || 'no content type'}`, provider);
  }
  try {
    return normalizeSync(provider, ct, rawBody, maxDepth);
  } catch (err) {
    if (err instanceof PayloadError) {
      if (err.provider === undefined) throw new PayloadError(err.message, provider);
      throw err;
    }
    // A bug or an input shape nobody foresaw must still become a 4xx-able error, not a crash.
    throw new PayloadError(`could not read the ${provider} payload: ${(err as Error).message}`, provider);
  }
}
