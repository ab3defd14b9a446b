import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// A per-process key: comparing keyed digests gives equal-length buffers whatever the inputs,
// so neither the content nor the length of the expected value leaks through timing.
const compareKey = randomBytes(32);

function digest(value: string | Buffer): Buffer {
  return createHmac('sha256', compareKey).update(value).digest();
}

/**
 * Constant-time equality of two strings or buffers of any length.
 * Both sides are reduced to HMAC digests first, then compared with `crypto.timingSafeEqual`.
 */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * True when any of `candidates` equals `expected`, a value whose length is no secret (a computed
 * signature: a base64 or hex HMAC has the same length for every key and body). Every candidate of
 * that length is compared in constant time, with no short-circuit; one of another length cannot
 * match, and telling it apart by timing reveals only that public length, so no keyed digest of both
 * sides is needed (safeEqualAny's two extra HMACs per comparison, on the path of every delivery).
 */
export function publicLengthEqualAny(expected: string, candidates: readonly string[]): boolean {
  const want = Buffer.from(expected, 'utf8');
  let found = false;
  for (const candidate of candidates) {
    const given = Buffer.from(candidate, 'utf8');
    if (given.length === want.length) found = timingSafeEqual(want, given) || found;
  }
  return found;
}

/**
 * True when `candidate` equals any of `expected`, in constant time per item.
 * Every item is compared (no short-circuit), so the position of a match does not leak.
 */
export function safeEqualAny(candidate: string | Buffer, expected: readonly (string | Buffer)[]): boolean {
  const c = digest(candidate);
  let found = false;
  for (const e of expected) found = timingSafeEqual(c, digest(e)) || found;
  return found;
}
