import { JsonTextError, parseStrictJson } from '../../../core/strict-json.js';
import { PayloadError } from '../payload/payload-error.js';
import type { EmailAttachment } from './types.js';

/** A string field, or '' when absent or not a string. */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** True for a plain object. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Requires a JSON object body, naming the provider in the error. */
export function requireObject(v: unknown, provider: string): Record<string, unknown> {
  if (!isObject(v)) throw new PayloadError(`a ${provider} delivery must be a JSON object`, provider);
  return v;
}

/** Parses a JSON-encoded form field as bodies are parsed, throwing a {@link PayloadError} that names the field. */
export function jsonField<T>(value: string | undefined, field: string, provider: string): T | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return parseStrictJson(value) as T;
  } catch (err) {
    if (err instanceof JsonTextError) throw new PayloadError(`the ${field} field ${err.message}`, provider);
    throw err;
  }
}

/** Builds an attachment from base64 content, checking that it is base64. */
export function base64Attachment(
  name: string,
  type: string,
  content: string,
  provider: string,
  extra: Partial<EmailAttachment> = {},
): EmailAttachment {
  const clean = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean)) {
    throw new PayloadError(`attachment "${name}" content is not base64`, provider);
  }
  const size = Buffer.from(clean, 'base64').length;
  return { name, type: type || 'application/octet-stream', size, content: clean, ...extra };
}

/** Builds an attachment from raw bytes (multipart file parts). */
export function bytesAttachment(name: string, type: string | undefined, data: Buffer, extra: Partial<EmailAttachment> = {}): EmailAttachment {
  const bare = (type ?? '').split(';')[0]!.trim();
  return { name, type: bare || 'application/octet-stream', size: data.length, content: data.toString('base64'), ...extra };
}

/** Strips angle brackets from a Content-ID. */
export function bareContentId(cid: string | undefined): string | undefined {
  const v = cid?.trim().replace(/^<|>$/g, '');
  return v ? v : undefined;
}
