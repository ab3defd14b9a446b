import { randomBytes } from 'node:crypto';

/** A file to put in a multipart body. */
export interface FormFile {
  /** Form field name, e.g. `attachment1`. */
  field: string;
  filename: string;
  contentType: string;
  data: Buffer | string;
}

/** An encoded request body with the Content-Type that goes with it. */
export interface EncodedBody {
  contentType: string;
  body: Buffer;
}

/** Encodes fields as `application/x-www-form-urlencoded` (repeated values for arrays). */
export function encodeForm(fields: Record<string, string | string[]>): EncodedBody {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
  return { contentType: 'application/x-www-form-urlencoded', body: Buffer.from(params.toString()) };
}

const quote = (s: string) => s.replace(/["\\\r\n]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ' '));

/**
 * Encodes fields and files as `multipart/form-data`, the way SendGrid and Mailgun post
 * inbound mail; used by `restwell hooks send` and by tests to build realistic requests.
 */
export function encodeMultipart(fields: Record<string, string>, files: FormFile[] = [], boundary?: string): EncodedBody {
  const b = boundary ?? `----restwell${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="${quote(f.field)}"; filename="${quote(f.filename)}"\r\n` +
          `Content-Type: ${f.contentType}\r\n\r\n`,
      ),
      typeof f.data === 'string' ? Buffer.from(f.data) : f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${b}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${b}`, body: Buffer.concat(chunks) };
}
