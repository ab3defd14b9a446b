import { encodeForm, encodeMultipart, type EncodedBody } from '../payload/form-body.js';
import { FORM_TYPE, isJsonContent, JSON_TYPE, MULTIPART_TYPE, parseForm, parseJson } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { bareContentId, bytesAttachment, isObject, jsonField, str } from './email-helpers.js';
import { addHeader, decodeEncodedWords, splitAddresses, toIsoDate } from './mail-headers.js';
import { pick } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { fromHeader, sampleEmailDefaults, type SampleEmail } from './samples.js';
import type { EmailAttachment, NormalizedEmail } from './types.js';

const M = 'mailgun';

/**
 * Mailgun route ("forward" or "store and notify") form post, urlencoded or multipart → normalized e-mail.
 * Headers come from `message-headers` (a JSON list of [name, value] pairs); files are the
 * `attachment-N` parts, or, for stored messages, the `attachments` JSON list of URLs.
 */
export function normalizeMailgun(contentType: string, rawBody: Buffer): NormalizedEmail {
  const form = parseForm(contentType, rawBody);
  const f = (name: string) => form.fields[name]?.[0];
  const headers: Record<string, string> = {};
  const pairs = jsonField<unknown>(f('message-headers'), 'message-headers', M) ?? [];
  if (!Array.isArray(pairs)) throw new PayloadError('message-headers must be a JSON list of [name, value] pairs', M);
  for (const pair of pairs) {
    if (Array.isArray(pair) && typeof pair[0] === 'string') addHeader(headers, pair[0], String(pair[1] ?? ''));
  }
  const from = decodeEncodedWords(f('from') ?? f('From') ?? headers.from ?? f('sender') ?? '');
  if (!from) throw new PayloadError('a Mailgun route post needs from or sender', M);
  const cidMap = jsonField<Record<string, string>>(f('content-id-map'), 'content-id-map', M) ?? {};
  const cidOf = new Map(Object.entries(isObject(cidMap) ? cidMap : {}).map(([cid, field]) => [field, bareContentId(cid)]));
  const attachments: EmailAttachment[] = form.files.map((file) => {
    const cid = cidOf.get(file.name);
    return bytesAttachment(file.filename ?? '', file.contentType, file.data, cid ? { contentId: cid } : {});
  });
  const stored = jsonField<unknown[]>(f('attachments'), 'attachments', M) ?? [];
  if (!Array.isArray(stored)) throw new PayloadError('the attachments field must be a JSON list', M);
  for (const a of stored.filter(isObject)) {
    const url = str(a.url);
    attachments.push({ name: str(a.name), type: str(a['content-type']) || 'application/octet-stream', size: Number(a.size) || 0, content: '', ...(url ? { url } : {}) });
  }
  const to = f('To') ?? f('to') ?? headers.to ?? f('recipient');
  return {
    from,
    to: splitAddresses(to),
    cc: splitAddresses(f('Cc') ?? f('cc') ?? headers.cc),
    subject: decodeEncodedWords(f('subject') ?? f('Subject') ?? headers.subject ?? ''),
    text: f('body-plain') ?? '',
    html: f('body-html') ?? '',
    date: toIsoDate(f('Date') ?? headers.date),
    messageId: f('Message-Id') ?? f('message-id') ?? headers['message-id'] ?? null,
    headers,
    attachments,
  };
}

/** A Mailgun route "forward" post: urlencoded without attachments, multipart with them (or when asked). */
export function sampleMailgunEmail(o: SampleEmail = {}, extra: Record<string, string> = {}, multipart = false): EncodedBody {
  const e = sampleEmailDefaults(o);
  const headers = [['From', fromHeader(e.from)], ['To', e.to.join(', ')], ['Subject', e.subject], ['Date', e.date], ['Message-Id', e.messageId]];
  const fields: Record<string, string> = {
    recipient: e.to.join(','), sender: e.from.email, from: fromHeader(e.from), subject: e.subject, To: e.to.join(', '),
    Date: e.date, 'Message-Id': e.messageId, 'body-plain': e.text, 'body-html': e.html, 'stripped-text': e.text.trim(),
    'message-headers': JSON.stringify(headers), 'attachment-count': String(e.attachments.length), ...extra,
  };
  if (e.cc.length) fields.Cc = e.cc.join(', ');
  if (!multipart && e.attachments.length === 0) return encodeForm(fields);
  return encodeMultipart(fields, e.attachments.map((a, i) => ({ field: `attachment-${i + 1}`, filename: a.name, contentType: a.type, data: a.content })));
}

/** Mailgun: routes post inbound mail as forms, event webhooks post JSON; both carry their signature in the body. */
export const mailgun: ProviderDescriptor = {
  name: M,
  kind: 'email',
  schemes: ['mailgun'],
  contentTypes: [FORM_TYPE, MULTIPART_TYPE, JSON_TYPE],
  normalize: (contentType, rawBody, maxDepth) =>
    // JSON from Mailgun is an event webhook (delivered, opened, …), not an inbound message.
    isJsonContent(contentType)
      ? { kind: 'event', payload: parseJson(rawBody, M, maxDepth) }
      : { kind: 'email', email: normalizeMailgun(contentType, rawBody) },
  eventId: (_headers, payload) => {
    const eventData = isObject(payload) ? payload['event-data'] : undefined;
    const sig = isObject(payload) ? payload.signature : undefined;
    return pick(payload, 'Message-Id', 'message-id', 'Message-ID') ?? pick(eventData, 'id') ?? pick(payload, 'token') ?? pick(sig, 'token');
  },
  sample: ({ text, signedFields }) => sampleMailgunEmail({ text, subject: text }, signedFields),
  // Mailgun retries anything but 406, so 406 is how a genuine delivery that can never be processed is refused.
  rejection: 'webhook-not-acceptable',
};
