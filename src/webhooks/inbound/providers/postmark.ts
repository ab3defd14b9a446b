import { base64Attachment, bareContentId, isObject, requireObject, str } from './email-helpers.js';
import { addHeader, formatAddress, splitAddresses, toIsoDate } from './mail-headers.js';
import { PayloadError, type NormalizedEmail } from './types.js';

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
