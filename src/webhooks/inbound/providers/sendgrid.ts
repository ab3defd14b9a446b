import { encodeMultipart, type EncodedBody } from '../payload/form-body.js';
import { decodeText, MULTIPART_TYPE, parseForm } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { bareContentId, bytesAttachment, isObject, jsonField } from './email-helpers.js';
import { decodeEncodedWords, parseHeaderBlock, splitAddresses, toIsoDate } from './mail-headers.js';
import { pick } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { fromHeader, rawHeaders, sampleEmailDefaults, type SampleEmail } from './samples.js';
import type { EmailAttachment, NormalizedEmail } from './types.js';

const S = 'sendgrid';

type AttachmentInfo = Record<string, { filename?: string; name?: string; type?: string; 'content-id'?: string }>;

/**
 * SendGrid Inbound Parse (multipart/form-data, "parsed" mode) → normalized e-mail.
 * Text fields are re-decoded with the charsets SendGrid lists in `charsets`, and files are
 * matched to `attachment-info` by their field names (attachment1…N).
 */
export function normalizeSendgrid(contentType: string, rawBody: Buffer): NormalizedEmail {
  const form = parseForm(contentType, rawBody);
  const charsets = jsonField<Record<string, string>>(form.fields.charsets?.[0], 'charsets', S) ?? {};
  const field = (name: string): string => {
    const part = form.parts.find((p) => p.name === name && p.filename === undefined);
    if (part) return decodeText(part.data, charsets[name]);
    return form.fields[name]?.[0] ?? '';
  };
  if (form.fields.email && !form.fields.from) {
    throw new PayloadError('SendGrid posted the raw MIME message; turn off "POST the raw, full MIME message" in Inbound Parse', S);
  }
  const headers = parseHeaderBlock(field('headers'));
  const from = decodeEncodedWords(field('from') || headers.from || '');
  if (!from) throw new PayloadError('a SendGrid Inbound Parse post needs a from field', S);
  const info = jsonField<AttachmentInfo>(form.fields['attachment-info']?.[0], 'attachment-info', S) ?? {};
  if (!isObject(info)) throw new PayloadError('the attachment-info field must be a JSON object', S);
  const attachments: EmailAttachment[] = form.files.map((file) => {
    const meta = isObject(info[file.name]) ? info[file.name]! : {};
    const cid = bareContentId(meta['content-id']);
    return bytesAttachment(meta.filename ?? meta.name ?? file.filename ?? '', meta.type ?? file.contentType, file.data, cid ? { contentId: cid } : {});
  });
  return {
    from,
    to: splitAddresses(field('to') || headers.to),
    cc: splitAddresses(field('cc') || headers.cc),
    subject: decodeEncodedWords(field('subject') || headers.subject || ''),
    text: field('text'),
    html: field('html'),
    date: toIsoDate(headers.date),
    messageId: headers['message-id'] || null,
    headers,
    attachments,
  };
}

/** A SendGrid Inbound Parse post (multipart/form-data, parsed mode). */
export function sampleSendgridEmail(o: SampleEmail = {}): EncodedBody {
  const e = sampleEmailDefaults(o);
  const info: Record<string, object> = {};
  e.attachments.forEach((a, i) => (info[`attachment${i + 1}`] = { filename: a.name, name: a.name, type: a.type }));
  const fields: Record<string, string> = {
    headers: rawHeaders(e), dkim: '{@example.com : pass}', to: e.to.join(', '), from: fromHeader(e.from), subject: e.subject,
    text: e.text, html: e.html, sender_ip: '192.0.2.10', envelope: JSON.stringify({ to: e.to, from: e.from.email }),
    attachments: String(e.attachments.length), charsets: JSON.stringify({ to: 'UTF-8', from: 'UTF-8', subject: 'UTF-8', text: 'UTF-8', html: 'UTF-8' }), SPF: 'pass',
  };
  if (e.cc.length) fields.cc = e.cc.join(', ');
  if (e.attachments.length) fields['attachment-info'] = JSON.stringify(info);
  return encodeMultipart(fields, e.attachments.map((a, i) => ({ field: `attachment${i + 1}`, filename: a.name, contentType: a.type, data: a.content })));
}

/** SendGrid Inbound Parse in "parsed" mode: multipart/form-data. */
export const sendgrid: ProviderDescriptor = {
  name: S,
  kind: 'email',
  schemes: ['basic', 'header'],
  contentTypes: [MULTIPART_TYPE],
  normalize: (contentType, rawBody) => ({ kind: 'email', email: normalizeSendgrid(contentType, rawBody) }),
  eventId: (_headers, payload) => {
    const raw = pick(payload, 'headers');
    return raw ? parseHeaderBlock(raw)['message-id'] : undefined;
  },
  sample: ({ text }) => sampleSendgridEmail({ text, subject: text }),
};
