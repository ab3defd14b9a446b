import { decodeText } from '../payload/parse-payload.js';

/**
 * Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?ISO-8859-1?Q?…?=`) in a header value.
 * Whitespace between adjacent encoded words is dropped, as the RFC requires.
 */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (whole, charset: string, enc: string, text: string) => {
      try {
        const bytes =
          enc.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : Buffer.from(
                text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
                'latin1',
              );
        return decodeText(bytes, charset.split('*')[0]);
      } catch {
        return whole;
      }
    });
}

/**
 * Parses a raw header block (RFC 5322, folded lines allowed) into lower-cased names;
 * repeated headers are joined with a newline so none is lost.
 */
export function parseHeaderBlock(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    addHeader(headers, line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Adds one header to a normalized map (lower-cased name, repeats joined with a newline). */
export function addHeader(headers: Record<string, string>, name: string, value: string): void {
  const key = name.trim().toLowerCase();
  headers[key] = key in headers ? `${headers[key]}\n${value}` : value;
}

/**
 * Splits an address-list header (`a@x, "Doe, Jane" <j@y>`) on the commas that separate
 * addresses, not those inside quotes, comments or angle brackets. Empty entries are dropped.
 */
export function splitAddresses(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let depth = 0;
  let angle = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && quoted) {
      current += c + (value[++i] ?? '');
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth = Math.max(0, depth - 1);
    else if (!quoted && c === '<') angle = true;
    else if (!quoted && c === '>') angle = false;
    if (c === ',' && !quoted && depth === 0 && !angle) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.map((s) => decodeEncodedWords(s.trim())).filter((s) => s !== '');
}

/** Formats a name and address as `Name <addr>`, quoting the name when it needs it. */
export function formatAddress(address: string, name?: string): string {
  if (!name || name === address) return address;
  const safe = /^[\w !#$%&'*+\-/=?^`{|}~.]*$/.test(name) ? name : `"${name.replace(/(["\\])/g, '\\$1')}"`;
  return `${safe} <${address}>`;
}

/** A mail Date header as ISO 8601, or null when absent or unparseable. */
export function toIsoDate(value: string | undefined | null): string | null {
  if (!value) return null;
  // Drop a trailing "(UTC)"-style comment, which Date.parse may not accept.
  const ms = Date.parse(value.replace(/\s*\([^)]*\)\s*$/, '').trim());
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
