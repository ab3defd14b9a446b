import type { HeaderMap } from './types.js';

/**
 * The value of a request header, by case-insensitive name; repeated headers are joined with ", "
 * the way Node joins them. Returns undefined when absent.
 */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const lower = name.toLowerCase();
  let value = headers[lower];
  if (value === undefined) {
    // Callers should pass lower-cased names, but a stray mixed-case map must not silently fail open or closed.
    for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) value = headers[key];
  }
  if (Array.isArray(value)) return value.length ? value.join(', ') : undefined;
  return value;
}

/** The request content type: `input.contentType` or the content-type header. */
export function contentTypeOf(headers: HeaderMap, contentType?: string): string {
  return contentType ?? headerValue(headers, 'content-type') ?? '';
}
