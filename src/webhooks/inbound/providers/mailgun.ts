import { bareContentId, bytesAttachment, isObject, jsonField, str } from './email-helpers.js';
import { addHeader, decodeEncodedWords, splitAddresses, toIsoDate } from './mail-headers.js';
import { parseForm } from './parse-payload.js';
import { PayloadError, type EmailAttachment, type NormalizedEmail } from './types.js';

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
