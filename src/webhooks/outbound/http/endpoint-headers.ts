import type { FieldError } from '../../../core/errors.js';

/** Custom headers per endpoint, at most. */
export const MAX_CUSTOM_HEADERS = 20;
/** The longest value of one custom header, and of all of them (names and values) together. */
export const MAX_HEADER_VALUE = 1024;
export const MAX_HEADERS_TOTAL = 8 * 1024;

// RFC 9110 §5.6.2 token characters.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, space and tab: what every HTTP client sends as is (no CR, LF or NUL can split a request).
const VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Headers the sender sets itself, or that describe the connection or the message framing: a
 * custom header must not change where, how or as what the delivery is sent, nor forge a signature.
 */
const RESERVED = new Set([
  'host', 'content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade',
  'te', 'trailer', 'expect', 'user-agent', 'proxy-authorization', 'proxy-connection', 'cookie', 'date', 'via', 'forwarded',
]);

/** Why a header name may not be set by an endpoint, or undefined. */
function reservedReason(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower.startsWith('webhook-')) return 'webhook-* headers carry the Standard Webhooks id, timestamp and signature, which the sender sets';
  if (RESERVED.has(lower) || lower.startsWith('proxy-') || lower.startsWith('sec-')) return `${lower} is set by the sender or describes the connection, so it cannot be a custom header`;
  return undefined;
}

/**
 * Checks an endpoint's `headers` member: an object of string values, bounded in count and size,
 * with valid names that are neither reserved nor repeated in another case. Adds to `errors`.
 */
export function checkHeaders(value: unknown, errors: FieldError[]): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push({ pointer: '/headers', detail: 'must be an object of header names to string values, e.g. {"authorization": "Bearer …"}' });
    return {};
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_CUSTOM_HEADERS) errors.push({ pointer: '/headers', detail: `at most ${MAX_CUSTOM_HEADERS} headers; this has ${entries.length}` });
  const seen = new Map<string, string>();
  let total = 0;
  const out: Record<string, string> = {};
  for (const [name, v] of entries.slice(0, MAX_CUSTOM_HEADERS + 1)) {
    const pointer = `/headers/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (!TOKEN.test(name) || name.length > 100) {
      errors.push({ pointer, detail: 'is not a header name: 1 to 100 letters, digits and !#$%&\'*+.^_`|~-' });
      continue;
    }
    const reserved = reservedReason(name);
    if (reserved) errors.push({ pointer, detail: reserved });
    const twin = seen.get(name.toLowerCase());
    if (twin !== undefined) errors.push({ pointer, detail: `repeats ${twin}: header names are case-insensitive` });
    seen.set(name.toLowerCase(), name);
    if (typeof v !== 'string') {
      errors.push({ pointer, detail: 'must be a string' });
      continue;
    }
    if (!VALUE.test(v)) errors.push({ pointer, detail: 'must be printable ASCII (no line breaks or control characters)' });
    else if (v.length > MAX_HEADER_VALUE) errors.push({ pointer, detail: `is longer than ${MAX_HEADER_VALUE} characters` });
    total += name.length + v.length;
    out[name] = v;
  }
  if (total > MAX_HEADERS_TOTAL) errors.push({ pointer: '/headers', detail: `names and values together exceed ${MAX_HEADERS_TOTAL} characters` });
  return out;
}
