import { randomUUID } from 'node:crypto';
import type { EncodedBody } from '../payload/form-body.js';
import { JSON_TYPE } from '../payload/parse-payload.js';

// What the providers' sample builders share: realistic defaults for a message, and JSON bodies.

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

/** A sample e-mail with every default filled in and attachment contents as bytes. */
export type FullSampleEmail = ReturnType<typeof sampleEmailDefaults>;

/** The sample e-mail `o` describes, every absent part given its default. */
export function sampleEmailDefaults(o: SampleEmail) {
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

/** A From header value: `Name <addr>`, or the bare address. */
export const fromHeader = (f: { email: string; name?: string }) => (f.name ? `${f.name} <${f.email}>` : f.email);

/** A JSON body, indented as providers' e-mail posts are. */
export const jsonBody = (v: unknown): EncodedBody => ({ contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(v, null, 2)) });

/** A JSON body, compact. */
export const compactJsonBody = (v: unknown): EncodedBody => ({ contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(v)) });

/** The header block of a sample e-mail, CRLF-separated (SendGrid posts it as a field). */
export function rawHeaders(e: FullSampleEmail): string {
  const lines = [`From: ${fromHeader(e.from)}`, `To: ${e.to.join(', ')}`, `Subject: ${e.subject}`, `Date: ${e.date}`, `Message-ID: ${e.messageId}`];
  if (e.cc.length) lines.push(`Cc: ${e.cc.join(', ')}`);
  return lines.join('\r\n') + '\r\n';
}

/** What a sample SMS should contain. */
export interface SampleSms {
  from?: string;
  to?: string;
  text?: string;
  messageId?: string;
}

/** The test event `restwell hooks send` posts to event providers that have no sample of their own. */
export function sampleTestEvent(text: string | undefined): EncodedBody {
  return compactJsonBody({ type: 'restwell.test', timestamp: new Date().toISOString(), data: { text: text ?? 'Hello' } });
}
