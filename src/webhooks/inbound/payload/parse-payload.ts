import { decodeUtf8, JsonTextError, parseStrictJson } from '../../../core/strict-json.js';
import { parseMediaType } from '../../../http/media-type.js';
import { parseMultipart, type MultipartPart } from './multipart.js';
import { PayloadError } from './payload-error.js';

/** The media types webhook bodies come in. */
export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';

/** Decodes bytes in a named charset, falling back to UTF-8 for unknown labels. */
export function decodeText(data: Buffer, charset?: string): string {
  if (charset) {
    try {
      return new TextDecoder(charset.trim()).decode(data);
    } catch {
      /* unknown charset label: UTF-8 is the best guess */
    }
  }
  return data.toString('utf8');
}

/** A parsed form: text fields (every value of repeated names) and the multipart parts, if any. */
export interface ParsedForm {
  fields: Record<string, string[]>;
  /** File parts of a multipart body (those with a filename). */
  files: MultipartPart[];
  /** All multipart parts, for callers that must re-decode text in another charset. */
  parts: MultipartPart[];
}

/**
 * Parses an `application/x-www-form-urlencoded` or `multipart/form-data` body.
 * Throws {@link PayloadError} for any other media type or a broken body.
 */
export function parseForm(contentType: string | undefined, rawBody: Buffer): ParsedForm {
  const type = parseMediaType(contentType).type;
  const fields: Record<string, string[]> = Object.create(null);
  const add = (k: string, v: string) => (fields[k] ??= []).push(v);
  if (type === FORM_TYPE) {
    for (const [k, v] of new URLSearchParams(rawBody.toString('utf8'))) add(k, v);
    return { fields, files: [], parts: [] };
  }
  if (type === MULTIPART_TYPE) {
    const parts = parseMultipart(rawBody, contentType!);
    const files: MultipartPart[] = [];
    for (const part of parts) {
      if (part.filename !== undefined) files.push(part);
      else add(part.name, decodeText(part.data, part.contentType && parseMediaType(part.contentType).params.charset));
    }
    return { fields, files, parts };
  }
  throw new PayloadError(`expected a form body, got ${type || 'no content type'}`);
}

/** The first value of each field, the shape most providers' documentation shows. */
export function firstValues(fields: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = v[0] ?? '';
  return out;
}

/**
 * Parses a JSON body as request bodies are parsed (UTF-8, I-JSON: no lone surrogate, no repeated
 * member name; no `__proto__`, no `1e400`; at most `maxDepth` deep), throwing {@link PayloadError}
 * that says what and where. What is refused here could never be stored or emitted as sent (a lone
 * surrogate becomes U+FFFD, differently on each engine; serializing a deep value overflows the
 * stack), so the delivery fails once, kept in the inbox, instead of failing each retry.
 */
export function parseJson(rawBody: Buffer, provider?: string, maxDepth?: number): unknown {
  try {
    const text = decodeUtf8(rawBody);
    if (text.trim() === '') throw new PayloadError('the body is empty; expected JSON', provider);
    return parseStrictJson(text, maxDepth);
  } catch (err) {
    if (err instanceof JsonTextError) throw new PayloadError(`the body ${err.message}`, provider);
    throw err;
  }
}

/** True for `application/json` and `application/*+json`. */
export function isJsonType(type: string): boolean {
  return type === JSON_TYPE || (type.startsWith('application/') && type.endsWith('+json'));
}

/** True when a Content-Type value names JSON (`application/json`, `application/*+json`), parameters aside. */
export function isJsonContent(contentType: string | undefined): boolean {
  return isJsonType(parseMediaType(contentType).type);
}

/**
 * Parses a body by its content type into plain data: JSON as is (at most `maxDepth` deep), forms
 * as an object of first values (files left out): what event-id rules and field-based normalizers read.
 * Throws {@link PayloadError}.
 */
export function parsePayload(contentType: string | undefined, rawBody: Buffer, maxDepth?: number): unknown {
  const type = parseMediaType(contentType).type;
  if (isJsonType(type)) return parseJson(rawBody, undefined, maxDepth);
  if (type === FORM_TYPE || type === MULTIPART_TYPE) {
    return firstValues(parseForm(contentType, rawBody).fields);
  }
  throw new PayloadError(`cannot parse a body of type ${type || '(none)'}`);
}
