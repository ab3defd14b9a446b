import { bareContentId, base64Attachment, bytesAttachment, isObject, requireObject, str } from './email-helpers.js';
import { splitAddresses, toIsoDate } from './mail-headers.js';
import { parseForm } from './parse-payload.js';
import { PayloadError, type EmailAttachment, type NormalizedEmail } from './types.js';

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
