import { randomUUID } from 'node:crypto';
import { encodeForm, type EncodedBody } from '../payload/form-body.js';
import { FORM_TYPE, isJsonContent, JSON_TYPE, parsePayload } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { headerValue } from '../verifiers/headers.js';
import { isObject, str } from './email-helpers.js';
import { pick } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import type { SampleSms } from './samples.js';
import type { NormalizedSms } from './types.js';

/** Twilio Messaging webhook fields (form-encoded, or the same names in JSON) → normalized SMS. */
export function normalizeTwilio(fields: Record<string, unknown>): NormalizedSms {
  const from = str(fields.From);
  if (!from) throw new PayloadError('a Twilio message webhook needs a From field', 'twilio');
  return {
    from,
    to: str(fields.To),
    text: str(fields.Body),
    messageId: str(fields.MessageSid) || str(fields.SmsSid) || null,
  };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes text for XML element content and attributes; drops characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** A TwiML document answering a message: `<Response><Message>…</Message></Response>`, or an empty `<Response/>`. */
export function twiml(message?: string): string {
  const body = message === undefined ? '' : `<Message>${xmlEscape(message)}</Message>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
}

/** A Twilio Messaging webhook (form-encoded), with the fields Twilio really sends. */
export function sampleTwilioSms(o: SampleSms = {}): EncodedBody & { params: Record<string, string> } {
  const sid = o.messageId ?? `SM${randomUUID().replace(/-/g, '')}`;
  const params: Record<string, string> = {
    ToCountry: 'US', ToState: 'CA', SmsMessageSid: sid, NumMedia: '0', ToCity: 'SPRINGFIELD', FromZip: '', SmsSid: sid,
    FromState: 'OR', SmsStatus: 'received', FromCity: 'SPRINGFIELD', Body: o.text ?? 'Who is Homer?', FromCountry: 'US',
    To: o.to ?? '+15005550006', ToZip: '', NumSegments: '1', MessageSid: sid, AccountSid: 'AC00000000000000000000000000000000',
    From: o.from ?? '+15555550123', ApiVersion: '2010-04-01',
  };
  return { ...encodeForm(params), params };
}

/** Twilio Messaging: form posts signed with X-Twilio-Signature, answered with TwiML. */
export const twilio: ProviderDescriptor = {
  name: 'twilio',
  kind: 'sms',
  schemes: ['twilio', 'basic'],
  // JSON only with bodySHA256 in the URL.
  contentTypes: [FORM_TYPE, JSON_TYPE],
  normalize: (contentType, rawBody, maxDepth) => {
    const fields = parsePayload(contentType, rawBody, maxDepth);
    if (!isObject(fields)) throw new PayloadError('a Twilio webhook must be a form or a JSON object', 'twilio');
    // JSON posts (bodySHA256) are usually not messages; only treat them as SMS when they look like one.
    if (isJsonContent(contentType) && !('From' in fields && 'Body' in fields)) return { kind: 'event', payload: fields };
    return { kind: 'sms', sms: normalizeTwilio(fields) };
  },
  eventId: (headers, payload) => {
    const sid = pick(payload, 'MessageSid', 'SmsSid', 'CallSid');
    const status = pick(payload, 'MessageStatus', 'SmsStatus', 'CallStatus');
    // Status callbacks reuse the message's sid for each status, so the status is part of the id;
    // an inbound SMS ("received") keeps the bare sid.
    if (sid && status && status !== 'received') return `${sid}:${status}`;
    return sid ?? headerValue(headers, 'i-twilio-idempotency-token');
  },
  sample: ({ text }) => sampleTwilioSms({ text }),
  // Twilio reads the answer as TwiML: an empty <Response/> sends no reply and logs no warning.
  reply: {
    contentType: 'text/xml; charset=utf-8',
    body: twiml,
    description: 'TwiML: `<Response/>`, or `<Response><Message>…</Message></Response>` for a reply action',
  },
};
