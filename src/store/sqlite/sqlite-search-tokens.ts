/**
 * The tokens SQLite's search indexes hold for a folded text, and the FTS5 query that finds a needle
 * among them (see sqlite-search-index.ts). Tokens are every 3-gram and every 4-gram of the text, in
 * code points, each written as the hex of its UTF-8 bytes so that FTS5's `ascii` tokenizer takes it
 * whole whatever characters it holds (spaces and punctuation included). A 3-gram's hex never equals
 * a 4-gram's: UTF-8 decodes one way, so the same bytes cannot be both 3 and 4 code points.
 */

/** The SQL function the index's statements call to tokenize folded text. */
export const SEARCH_TOKENS_FUNCTION = 'rw_search_tokens';

const ASCII_HEX = Array.from({ length: 128 }, (_, c) => c.toString(16).padStart(2, '0'));

function hexOf(char: string): string {
  const c = char.codePointAt(0)!;
  return c < 128 ? ASCII_HEX[c]! : Buffer.from(char, 'utf8').toString('hex');
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** The two hex digits of each ASCII character, as bytes: HEX_BYTES[2c], HEX_BYTES[2c + 1]. */
const HEX_BYTES = Uint8Array.from(Buffer.from(ASCII_HEX.join(''), 'latin1'));

/** The index's tokens of a folded text, space-separated: its 3-grams, then its 4-grams (none under 3 characters). */
export function searchTokens(folded: string): string {
  // Every write of a search field runs this (when its pending rows move into FTS5): ASCII text, the
  // common case, is written byte by byte into one buffer of the known length, about half the cost
  // of cutting a hex string into a string per token.
  if (ASCII_ONLY.test(folded)) {
    const n = folded.length;
    if (n < 3) return '';
    const out = Buffer.allocUnsafe(7 * (n - 2) + 9 * (n - 3));
    let at = 0;
    for (const size of [3, 4]) {
      for (let i = 0; i + size <= n; i++) {
        if (at) out[at++] = 0x20;
        for (let k = i; k < i + size; k++) {
          const c = 2 * folded.charCodeAt(k);
          out[at++] = HEX_BYTES[c]!;
          out[at++] = HEX_BYTES[c + 1]!;
        }
      }
    }
    return out.toString('latin1', 0, at);
  }
  const hex = Array.from(folded, hexOf);
  const tokens: string[] = [];
  for (let i = 0; i + 3 <= hex.length; i++) tokens.push(hex[i]! + hex[i + 1]! + hex[i + 2]!);
  for (let i = 0; i + 4 <= hex.length; i++) tokens.push(hex[i]! + hex[i + 1]! + hex[i + 2]! + hex[i + 3]!);
  return tokens.join(' ');
}

/**
 * The FTS5 query whose matches include every row whose folded text contains `folded`: its one
 * 3-gram, or the 4-grams that cover it, ANDed: one every third character and the last, so that
 * neighbours overlap by a character and each pair of adjacent characters is inside one of them.
 * Without the overlap (one every fourth), `son 9999` over 1M names ANDed `son ` and `9999`, which
 * hundreds of `…son 19999` share: ~700 µs of candidates to test, ~140 µs with it. Undefined when
 * the index cannot narrow the search: fewer than 3 characters, or a NUL, which the exact test stops at.
 */
export function searchTokenQuery(folded: string): string | undefined {
  const hex = Array.from(folded, hexOf);
  if (hex.length < 3 || folded.includes('\0')) return undefined;
  if (hex.length === 3) return `"${hex.join('')}"`;
  const starts = new Set<number>();
  for (let i = 0; i + 4 <= hex.length; i += 3) starts.add(i);
  starts.add(hex.length - 4);
  return [...starts].map((i) => `"${hex.slice(i, i + 4).join('')}"`).join(' AND ');
}
