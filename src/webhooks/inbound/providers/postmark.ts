import { randomUUID } from 'node:crypto';
import type { EncodedBody } from '../payload/form-body.js';
import { JSON_TYPE, parseJson } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { base64Attachment, bareContentId, isObject, requireObject, str } from './email-helpers.js';
import { addHeader, formatAddress, splitAddresses, toIsoDate } from './mail-headers.js';
import { pick } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { jsonBody, sampleEmailDefaults, type SampleEmail } from './samples.js';
import type { NormalizedEmail } from './types.js';

const P = 'postmark';

function addressList(full: unknown, plain: unknown): string[] {
  if (Array.isArray(full)) {
    return full.filter(isObject).map((a) => formatAddress(str(a.Email), str(a.Name))).filter(Boolean);
  }
  return splitAddresses(str(plain));
}

/**
 * Postmark inbound JSON → normalized e-mail. Uses the *Full address objects when present,
 * the Message-ID header for `messageId` (falling back to Postmark's own MessageID).
 */
export function normalizePostmark(body: unknown): NormalizedEmail {
  const b = requireObject(body, P);
  const fromFull = isObject(b.FromFull) ? formatAddress(str(b.FromFull.Email), str(b.FromFull.Name)) : '';
  const from = fromFull || str(b.From);
  if (!from) throw new PayloadError('a Postmark inbound e-mail needs From or FromFull', P);
  const headers: Record<string, string> = {};
  if (b.Headers !== undefined && !Array.isArray(b.Headers)) throw new PayloadError('Headers must be an array of {Name, Value}', P);
  for (const h of (b.Headers as unknown[] | undefined) ?? []) {
    if (isObject(h) && str(h.Name)) addHeader(headers, str(h.Name), str(h.Value));
  }
  if (b.Attachments !== undefined && !Array.isArray(b.Attachments)) throw new PayloadError('Attachments must be an array', P);
  const attachments = ((b.Attachments as unknown[] | undefined) ?? []).map((a, i) => {
    if (!isObject(a)) throw new PayloadError(`Attachments[${i}] must be an object`, P);
    const cid = bareContentId(str(a.ContentID));
    return base64Attachment(str(a.Name), str(a.ContentType), str(a.Content), P, cid ? { contentId: cid } : {});
  });
  return {
    from,
    to: addressList(b.ToFull, b.To),
    cc: addressList(b.CcFull, b.Cc),
    subject: str(b.Subject),
    text: str(b.TextBody),
    html: str(b.HtmlBody),
    date: toIsoDate(str(b.Date) || headers.date),
    messageId: headers['message-id'] || str(b.MessageID) || null,
    headers,
    attachments,
  };
}

/** A Postmark inbound webhook body (JSON). */
export function samplePostmarkEmail(o: SampleEmail = {}): EncodedBody {
  const e = sampleEmailDefaults(o);
  return jsonBody({
    FromName: e.from.name ?? '', From: e.from.email, FromFull: { Email: e.from.email, Name: e.from.name ?? '', MailboxHash: '' },
    To: e.to.join(', '), ToFull: e.to.map((a) => ({ Email: a, Name: '', MailboxHash: '' })),
    Cc: e.cc.join(', '), CcFull: e.cc.map((a) => ({ Email: a, Name: '', MailboxHash: '' })),
    OriginalRecipient: e.to[0], Subject: e.subject, MessageID: randomUUID(), ReplyTo: '', MailboxHash: '', Date: e.date,
    TextBody: e.text, HtmlBody: e.html, StrippedTextReply: '', Tag: '',
    Headers: [{ Name: 'Message-ID', Value: e.messageId }, { Name: 'X-Spam-Status', Value: 'No' }],
    Attachments: e.attachments.map((a) => ({ Name: a.name, Content: a.content.toString('base64'), ContentType: a.type, ContentLength: a.content.length })),
  });
}

/** Postmark inbound e-mail: JSON, authenticated with HTTP Basic credentials in the webhook URL. */
export const postmark: ProviderDescriptor = {
  name: P,
  kind: 'email',
  schemes: ['basic', 'header'],
  contentTypes: [JSON_TYPE],
  normalize: (_contentType, rawBody, maxDepth) => ({ kind: 'email', email: normalizePostmark(parseJson(rawBody, P, maxDepth)) }),
  eventId: (_headers, payload) => pick(payload, 'MessageID'),
  sample: ({ text }) => samplePostmarkEmail({ text, subject: text }),
  // Postmark retries anything but 403, so 403 is how a genuine delivery that can never be processed is refused.
  rejection: 'webhook-rejected',
};
