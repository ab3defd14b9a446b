import { bareContentId, bytesAttachment, isObject, jsonField } from './email-helpers.js';
import { decodeEncodedWords, parseHeaderBlock, splitAddresses, toIsoDate } from './mail-headers.js';
import { decodeText, parseForm } from './parse-payload.js';
import { PayloadError, type EmailAttachment, type NormalizedEmail } from './types.js';

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
