import { parseMediaType } from '../../../http/media-type.js';
import { PayloadError } from './payload-error.js';

/** One part of a multipart/form-data body, with its bytes untouched. */
export interface MultipartPart {
  /** The form field name (`name` parameter of Content-Disposition). */
  name: string;
  /** Set when the part is a file upload. */
  filename?: string;
  /** The part's Content-Type, if given. */
  contentType?: string;
  /** Part headers, lower-cased names. */
  headers: Record<string, string>;
  data: Buffer;
}

/**
 * Parses a multipart/form-data body synchronously, keeping each part's raw bytes so that
 * text in a declared charset (SendGrid `charsets`) can be decoded correctly afterwards.
 * Tolerates LF-only line endings and a preamble; throws {@link PayloadError} on a broken body.
 */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  const boundary = parseMediaType(contentType).params.boundary;
  if (!boundary) throw new PayloadError('multipart body without a boundary parameter in Content-Type');
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new PayloadError('multipart body does not contain its boundary');
  const parts: MultipartPart[] = [];
  for (;;) {
    pos += delimiter.length;
    if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return parts; // closing "--boundary--"
    pos = skipLine(body, pos);
    const next = findDelimiter(body, delimiter, pos);
    if (next < 0) throw new PayloadError('multipart body ends before its closing boundary');
    let end = next;
    if (body[end - 1] === 0x0a) end--;
    if (body[end - 1] === 0x0d) end--;
    parts.push(parsePart(body.subarray(pos, Math.max(pos, end))));
    pos = next;
  }
}

function skipLine(body: Buffer, pos: number): number {
  const nl = body.indexOf(0x0a, pos);
  return nl < 0 ? body.length : nl + 1;
}

/** Finds the next delimiter that starts a line. */
function findDelimiter(body: Buffer, delimiter: Buffer, from: number): number {
  let at = body.indexOf(delimiter, from);
  while (at >= 0 && at !== from && body[at - 1] !== 0x0a) at = body.indexOf(delimiter, at + 1);
  return at;
}

function parsePart(raw: Buffer): MultipartPart {
  let split = raw.indexOf('\r\n\r\n');
  let sepLen = 4;
  const lf = raw.indexOf('\n\n');
  if (split < 0 || (lf >= 0 && lf < split)) [split, sepLen] = [lf, 2];
  if (split < 0) {
    // A part with headers and an empty body may end right after its headers.
    split = raw.length;
    sepLen = 0;
  }
  const headers: Record<string, string> = {};
  for (const line of raw.subarray(0, split).toString('utf8').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const disposition = parseMediaType(headers['content-disposition']).params;
  const name = disposition.name;
  if (name === undefined) throw new PayloadError('multipart part without a Content-Disposition name');
  const filename = disposition.filename;
  return {
    name,
    ...(filename !== undefined ? { filename } : {}),
    ...(headers['content-type'] ? { contentType: headers['content-type'] } : {}),
    headers,
    data: raw.subarray(Math.min(raw.length, split + sepLen)),
  };
}
