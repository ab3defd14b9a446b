import type { EncodedBody } from '../payload/form-body.js';
import { isJsonContent, JSON_TYPE, MULTIPART_TYPE, parseForm, parseJson } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { bareContentId, base64Attachment, bytesAttachment, isObject, requireObject, str } from './email-helpers.js';
import { splitAddresses, toIsoDate } from './mail-headers.js';
import { pickHeader } from './pick.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { fromHeader, jsonBody, sampleEmailDefaults, type SampleEmail } from './samples.js';
import type { EmailAttachment, NormalizedEmail } from './types.js';

const C = 'cloudmailin';

/** Normalizes CloudMailin header keys (`Message-ID`, `message_id`) to `message-id`; arrays joined by newline. */
function normalizeHeaders(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(raw)) return out;
  for (const [k, v] of Object.entries(raw)) {
    out[k.toLowerCase().replace(/_/g, '-')] = Array.isArray(v) ? v.map(str).join('\n') : str(v);
  }
  return out;
}

const first = (v: string | undefined) => v?.split('\n')[0];

/** CloudMailin JSON (normalized or original hash format) → normalized e-mail. */
export function normalizeCloudmailin(body: unknown): NormalizedEmail {
  const b = requireObject(body, C);
  const headers = normalizeHeaders(b.headers);
  const envelope = isObject(b.envelope) ? b.envelope : {};
  const from = first(headers.from) || str(envelope.from);
  if (!from) throw new PayloadError('a CloudMailin message needs headers.from or envelope.from', C);
  if (b.attachments !== undefined && !Array.isArray(b.attachments)) throw new PayloadError('attachments must be an array', C);
  const attachments: EmailAttachment[] = ((b.attachments as unknown[] | undefined) ?? []).map((a, i) => {
    if (!isObject(a)) throw new PayloadError(`attachments[${i}] must be an object`, C);
    const cid = bareContentId(str(a.content_id));
    const extra = cid ? { contentId: cid } : {};
    if (typeof a.content === 'string') return base64Attachment(str(a.file_name), str(a.content_type), a.content, C, extra);
    // Attachment-store mode: CloudMailin uploaded the file and sends its URL instead.
    return { name: str(a.file_name), type: str(a.content_type) || 'application/octet-stream', size: Number(a.size) || 0, content: '', url: str(a.url), ...extra };
  });
  const recipients = Array.isArray(envelope.recipients) ? envelope.recipients.map(str) : splitAddresses(str(envelope.to));
  const to = headers.to ? splitAddresses(headers.to.replace(/\n/g, ', ')) : recipients;
  return {
    from,
    to,
    cc: splitAddresses(headers.cc?.replace(/\n/g, ', ')),
    subject: first(headers.subject) ?? '',
    text: str(b.plain),
    html: str(b.html),
    date: toIsoDate(first(headers.date)),
    messageId: first(headers['message-id']) || null,
    headers,
    attachments,
  };
}

/**
 * CloudMailin multipart format → normalized e-mail: `headers[Subject]`, `envelope[from]`, `plain`, `html`
 * fields and `attachments[N]` file parts are regrouped into the JSON shape first.
 */
export function normalizeCloudmailinMultipart(contentType: string, rawBody: Buffer): NormalizedEmail {
  const form = parseForm(contentType, rawBody);
  const body: Record<string, unknown> = { headers: {}, envelope: {} };
  for (const [key, values] of Object.entries(form.fields)) {
    const m = /^(headers|envelope)\[([^\]]+)\](\[\])?$/.exec(key);
    if (m) (body[m[1]!] as Record<string, unknown>)[m[2]!] = m[3] || values.length > 1 ? values : values[0];
    else if (key === 'plain' || key === 'html') body[key] = values[0];
  }
  const email = normalizeCloudmailin(body);
  email.attachments = form.files.map((f) => bytesAttachment(f.filename ?? '', f.contentType, f.data));
  return email;
}

/** A CloudMailin JSON (normalized format) post. */
export function sampleCloudmailinEmail(o: SampleEmail = {}): EncodedBody {
  const e = sampleEmailDefaults(o);
  return jsonBody({
    envelope: { to: e.to[0], recipients: e.to, from: e.from.email, helo_domain: 'mail.example.com', remote_ip: '192.0.2.10', tls: true, spf: { result: 'pass', domain: 'example.com' } },
    headers: { from: fromHeader(e.from), to: e.to.join(', '), ...(e.cc.length ? { cc: e.cc.join(', ') } : {}), subject: e.subject, date: e.date, message_id: e.messageId, received: ['by mx.cloudmailin.net', 'by mail.example.com'] },
    plain: e.text, html: e.html, reply_plain: null,
    attachments: e.attachments.map((a) => ({ content: a.content.toString('base64'), file_name: a.name, content_type: a.type, size: a.content.length, disposition: 'attachment' })),
  });
}

/** CloudMailin: JSON (normalized or original hash format) or multipart posts. */
export const cloudmailin: ProviderDescriptor = {
  name: C,
  kind: 'email',
  schemes: ['basic', 'header'],
  contentTypes: [JSON_TYPE, MULTIPART_TYPE],
  normalize: (contentType, rawBody, maxDepth) => ({
    kind: 'email',
    email: isJsonContent(contentType) ? normalizeCloudmailin(parseJson(rawBody, C, maxDepth)) : normalizeCloudmailinMultipart(contentType, rawBody),
  }),
  eventId: (_headers, payload) => (isObject(payload) ? pickHeader(payload.headers, 'message_id') : undefined),
  sample: ({ text }) => sampleCloudmailinEmail({ text, subject: text }),
};
