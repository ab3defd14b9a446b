import { randomUUID } from 'node:crypto';
import { encodeForm, encodeMultipart, type EncodedBody } from './form-body.js';

/** What a sample e-mail should contain; everything has a realistic default. */
export interface SampleEmail {
  from?: { email: string; name?: string };
  to?: string[];
  cc?: string[];
  subject?: string;
  text?: string;
  html?: string;
  /** RFC 2822 date; defaults to now. */
  date?: string;
  messageId?: string;
  attachments?: { name: string; type: string; content: Buffer | string }[];
}

function defaults(o: SampleEmail) {
  const id = o.messageId ?? `<${randomUUID()}@mail.example.com>`;
  return {
    from: o.from ?? { email: 'marge@example.com', name: 'Marge Simpson' },
    to: o.to ?? ['inbox@restwell.example'],
    cc: o.cc ?? [],
    subject: o.subject ?? 'Hello from Springfield',
    text: o.text ?? 'Hi there,\n\nThis is a test message.\n',
    html: o.html ?? '<p>Hi there,</p><p>This is a test message.</p>',
    date: o.date ?? new Date().toUTCString().replace('GMT', '+0000'),
    messageId: id,
    attachments: (o.attachments ?? []).map((a) => ({ ...a, content: Buffer.isBuffer(a.content) ? a.content : Buffer.from(a.content) })),
  };
}

const fromHeader = (f: { email: string; name?: string }) => (f.name ? `${f.name} <${f.email}>` : f.email);
const json = (v: unknown): EncodedBody => ({ contentType: 'application/json', body: Buffer.from(JSON.stringify(v, null, 2)) });

/** A Postmark inbound webhook body (JSON). */
export function samplePostmarkEmail(o: SampleEmail = {}): EncodedBody {
  const e = defaults(o);
  return json({
    FromName: e.from.name ?? '', From: e.from.email, FromFull: { Email: e.from.email, Name: e.from.name ?? '', MailboxHash: '' },
    To: e.to.join(', '), ToFull: e.to.map((a) => ({ Email: a, Name: '', MailboxHash: '' })),
    Cc: e.cc.join(', '), CcFull: e.cc.map((a) => ({ Email: a, Name: '', MailboxHash: '' })),
    OriginalRecipient: e.to[0], Subject: e.subject, MessageID: randomUUID(), ReplyTo: '', MailboxHash: '', Date: e.date,
    TextBody: e.text, HtmlBody: e.html, StrippedTextReply: '', Tag: '',
    Headers: [{ Name: 'Message-ID', Value: e.messageId }, { Name: 'X-Spam-Status', Value: 'No' }],
    Attachments: e.attachments.map((a) => ({ Name: a.name, Content: a.content.toString('base64'), ContentType: a.type, ContentLength: a.content.length })),
  });
}

function rawHeaders(e: ReturnType<typeof defaults>): string {
  const lines = [`From: ${fromHeader(e.from)}`, `To: ${e.to.join(', ')}`, `Subject: ${e.subject}`, `Date: ${e.date}`, `Message-ID: ${e.messageId}`];
  if (e.cc.length) lines.push(`Cc: ${e.cc.join(', ')}`);
  return lines.join('\r\n') + '\r\n';
}

/** A SendGrid Inbound Parse post (multipart/form-data, parsed mode). */
export function sampleSendgridEmail(o: SampleEmail = {}): EncodedBody {
  const e = defaults(o);
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

/** A Mailgun route "forward" post: urlencoded without attachments, multipart with them (or when asked). */
export function sampleMailgunEmail(o: SampleEmail = {}, extra: Record<string, string> = {}, multipart = false): EncodedBody {
  const e = defaults(o);
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

/** A CloudMailin JSON (normalized format) post. */
export function sampleCloudmailinEmail(o: SampleEmail = {}): EncodedBody {
  const e = defaults(o);
  return json({
    envelope: { to: e.to[0], recipients: e.to, from: e.from.email, helo_domain: 'mail.example.com', remote_ip: '192.0.2.10', tls: true, spf: { result: 'pass', domain: 'example.com' } },
    headers: { from: fromHeader(e.from), to: e.to.join(', '), ...(e.cc.length ? { cc: e.cc.join(', ') } : {}), subject: e.subject, date: e.date, message_id: e.messageId, received: ['by mx.cloudmailin.net', 'by mail.example.com'] },
    plain: e.text, html: e.html, reply_plain: null,
    attachments: e.attachments.map((a) => ({ content: a.content.toString('base64'), file_name: a.name, content_type: a.type, size: a.content.length, disposition: 'attachment' })),
  });
}

/** What a sample SMS should contain. */
export interface SampleSms {
  from?: string;
  to?: string;
  text?: string;
  messageId?: string;
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

/** A Vonage inbound SMS (SMS API, JSON). */
export function sampleVonageSms(o: SampleSms = {}): EncodedBody & { params: Record<string, string> } {
  const params: Record<string, string> = {
    msisdn: o.from ?? '447700900001', to: o.to ?? '447700900000', messageId: o.messageId ?? '0A0000000123ABCD1',
    text: o.text ?? 'Who is Homer?', type: 'text', keyword: (o.text ?? 'WHO').split(/\s+/)[0]!.toUpperCase(),
    'api-key': 'abcd1234', 'message-timestamp': new Date().toISOString().replace('T', ' ').slice(0, 19),
  };
  return { ...json(params), params };
}
