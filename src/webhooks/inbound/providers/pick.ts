import { isObject } from './email-helpers.js';

// Helpers for the providers' event-id rules, which read ids wherever each provider puts them.

/** The first non-empty string (or number) among the given keys of an object. */
export function pick(body: unknown, ...keys: string[]): string | undefined {
  if (!isObject(body)) return undefined;
  for (const key of keys) {
    let v = body[key];
    if (Array.isArray(v)) v = v[0];
    if (typeof v === 'number') return String(v);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}

/** Case- and separator-insensitive lookup in a header object (`Message-ID`, `message_id`, …). */
export function pickHeader(headers: unknown, name: string): string | undefined {
  if (!isObject(headers)) return undefined;
  const want = name.toLowerCase().replace(/[-_]/g, '');
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase().replace(/[-_]/g, '') === want) return pick(headers, key);
  }
  return undefined;
}
