import { isUtf8 } from 'node:buffer';
import { describeJsonHazard, findJsonHazard, type JsonHazard } from './json-hazards.js';
import { findDuplicateMember } from './json-members.js';

// fatal: a byte sequence that is not UTF-8 is an error, never silently U+FFFD. A leading BOM is dropped.
const STRICT = new TextDecoder('utf-8', { fatal: true });
// Only to say where the bad bytes are: the rest decodes as it would have, each bad sequence as U+FFFD.
const LOSSY = new TextDecoder('utf-8', { ignoreBOM: true });
const BOM = [0xef, 0xbb, 0xbf];

/** Where bytes stop being UTF-8. */
export interface Utf8Fault {
  /** Offset of the first byte that is not (part of) a UTF-8 character. */
  byteOffset: number;
  /** The bytes decoded with each bad sequence as U+FFFD (a leading BOM dropped), to name a place in. */
  text: string;
  /** Where in `text` the first bad sequence is. */
  charOffset: number;
}

/**
 * Why JSON was refused: bytes that are not UTF-8, a syntax error, or a hazard at a pointer. The
 * message reads after its subject: `the body ${message}`, `the file ${message}`.
 */
export class JsonTextError extends Error {
  constructor(message: string, readonly hazard?: JsonHazard, readonly utf8?: Utf8Fault) {
    super(message);
    this.name = 'JsonTextError';
  }
}

/**
 * UTF-8 bytes as text (a leading BOM dropped). Bytes that are not UTF-8, an encoded surrogate
 * (`ED A0 80`) among them, throw JsonTextError saying where: never silently U+FFFD (RFC 8259 §8.1).
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return STRICT.decode(bytes);
  } catch {
    const start = BOM.every((b, i) => bytes[i] === b) ? BOM.length : 0;
    const body = bytes.subarray(start);
    const text = LOSSY.decode(body);
    // What decodes unchanged encodes back to the same bytes: the first difference is the first bad byte.
    const again = Buffer.from(text, 'utf8');
    let valid = 0;
    for (let high = Math.min(body.length, again.length); valid < high; ) {
      const mid = Math.ceil((valid + high) / 2);
      if (Buffer.compare(body.subarray(0, mid), again.subarray(0, mid)) === 0) valid = mid;
      else high = mid - 1;
    }
    // The common prefix may end inside the bad sequence's first bytes (EF BF 41 decodes as U+FFFD A).
    while (valid > 0 && !isUtf8(body.subarray(0, valid))) valid--;
    const fault = { byteOffset: start + valid, text, charOffset: LOSSY.decode(body.subarray(0, valid)).length };
    throw new JsonTextError(`is not valid UTF-8 (the first bad byte is at offset ${fault.byteOffset}); JSON must be UTF-8 (RFC 8259 §8.1)`, undefined, fault);
  }
}

/**
 * Parses JSON text as I-JSON (RFC 7493) requires and as every engine can store it: a syntax
 * error, a member name repeated in an object, a lone surrogate (`"\ud800"`), or any other
 * {@link findJsonHazard} hazard (depth past `maxDepth`, `1e400`, `__proto__`) throws
 * JsonTextError with the pointer. Two passes: JSON.parse, and one scan of the text for
 * repeated names (which the parsed value no longer shows) before one walk of the value.
 */
export function parseStrictJson(text: string, maxDepth = Infinity): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new JsonTextError(`is not valid JSON: ${(err as Error).message}`);
  }
  const hazard = findDuplicateMember(text) ?? findJsonHazard(value, maxDepth);
  if (hazard) throw new JsonTextError(`is refused: ${describeHazardAt(hazard, maxDepth)}`, hazard);
  return value;
}

/** A hazard in one sentence that names its place: "the member at /a/b repeats …". */
function describeHazardAt(hazard: JsonHazard, maxDepth: number): string {
  const member = hazard.kind === 'duplicate-member' || hazard.kind === 'prototype-key';
  const where = hazard.pointer ? `the ${member ? 'member' : 'value'} at ${hazard.pointer}` : 'the top-level value';
  return `${where} ${describeJsonHazard(hazard, maxDepth)}`;
}
