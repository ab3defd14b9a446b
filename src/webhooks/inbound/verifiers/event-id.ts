import { parseHeaderBlock } from '../providers/mail-headers.js';
import type { ProviderName } from '../providers/provider-name.js';
import { headerValue } from './headers.js';
import type { HeaderMap } from './types.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first non-empty string (or number) among the given keys of an object. */
function pick(body: unknown, ...keys: string[]): string | undefined {
  if (!isObj(body)) return undefined;
  for (const key of keys) {
    let v = body[key];
    if (Array.isArray(v)) v = v[0];
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}

/** Case- and separator-insensitive lookup in a header object (`Message-ID`, `message_id`, …). */
function pickHeader(headers: unknown, name: string): string | undefined {
  if (!isObj(headers)) return undefined;
  const want = name.toLowerCase().replace(/[-_]/g, '');
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase().replace(/[-_]/g, '') === want) return pick(headers, key);
  }
  return undefined;
}

/**
 * The provider's own id for a delivery, used to de-duplicate redeliveries; undefined when the
 * provider gives none. `parsedBody` is the parsed JSON or the form fields (first values).
 */
export function eventIdFor(provider: ProviderName, headers: HeaderMap, parsedBody: unknown): string | undefined {
  switch (provider) {
    case 'standard-webhooks':
      return headerValue(headers, 'webhook-id') ?? headerValue(headers, 'svix-id');
    case 'github':
      return headerValue(headers, 'x-github-delivery');
    case 'stripe':
      return pick(parsedBody, 'id');
    case 'twilio': {
      const sid = pick(parsedBody, 'MessageSid', 'SmsSid', 'CallSid');
      const status = pick(parsedBody, 'MessageStatus', 'SmsStatus', 'CallStatus');
      // Status callbacks reuse the message's sid for each status, so the status is part of the id;
      // an inbound SMS ("received") keeps the bare sid.
      if (sid && status && status !== 'received') return `${sid}:${status}`;
      return sid ?? headerValue(headers, 'i-twilio-idempotency-token');
    }
    case 'vonage':
      return pick(parsedBody, 'messageId', 'message_uuid', 'message-id');
    case 'postmark':
      return pick(parsedBody, 'MessageID');
    case 'mailgun': {
      const eventData = isObj(parsedBody) ? parsedBody['event-data'] : undefined;
      const sig = isObj(parsedBody) ? parsedBody.signature : undefined;
      return pick(parsedBody, 'Message-Id', 'message-id', 'Message-ID') ?? pick(eventData, 'id') ?? pick(parsedBody, 'token') ?? pick(sig, 'token');
    }
    case 'sendgrid': {
      const raw = pick(parsedBody, 'headers');
      return raw ? parseHeaderBlock(raw)['message-id'] : undefined;
    }
    case 'cloudmailin':
      return isObj(parsedBody) ? pickHeader(parsedBody.headers, 'message_id') : undefined;
    case 'generic':
      return headerValue(headers, 'idempotency-key') ?? headerValue(headers, 'webhook-id') ?? pick(parsedBody, 'id');
    default:
      return undefined;
  }
}
