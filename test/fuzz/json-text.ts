import type { Rng } from './prng.js';

/**
 * JSON text built by hand, so a body can hold what JSON.stringify never writes: duplicate keys,
 * 1e400, lone surrogates, invalid UTF-8 (the INVALID_UTF8 marker, replaced by bad bytes in `toBytes`).
 */
export type JsonText = string;

/** Stands for an invalid UTF-8 byte sequence; `toBytes` replaces it. */
export const INVALID_UTF8 = '\uE000';
const BAD_SEQUENCES = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xfe, 0xff]];

export const text = (s: string): JsonText => JSON.stringify(s);
export const object = (entries: Array<[string, JsonText]>): JsonText => `{${entries.map(([k, v]) => `${text(k)}:${v}`).join(',')}}`;
export const array = (items: JsonText[]): JsonText => `[${items.join(',')}]`;

/** The bytes of JSON text, with every INVALID_UTF8 marker replaced by a malformed UTF-8 sequence. */
export function toBytes(json: string, rng: Rng): Buffer {
  if (!json.includes(INVALID_UTF8)) return Buffer.from(json, 'utf8');
  const parts = json.split(INVALID_UTF8);
  const out: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push(Buffer.from(rng.pick(BAD_SEQUENCES)));
    out.push(Buffer.from(part, 'utf8'));
  });
  return Buffer.concat(out);
}

/** Numbers at and past every boundary a parser or a column type has. */
export const HOSTILE_NUMBERS: JsonText[] = [
  '0', '-0', '-1', '1', '0.5', '-0.0', '1e400', '-1e400', '1e-400', '4.9e-324', '1.7976931348623157e308', '2147483647', '2147483648',
  '-2147483649', '9007199254740991', '9007199254740993', '-9007199254740993', '9223372036854775807', '9223372036854775808',
  '-9223372036854775809', '123456789012345678901234567890123456789', '1E2', '1.0', '100000000000000000000000e-20', '0.1e1',
];

/** Strings that break naive code: NUL, lone surrogates, LIKE wildcards, odd dates, huge lengths. */
export function hostileString(rng: Rng): JsonText {
  return rng.weighted<JsonText>([
    [3, () => rng.pick(['""', '" "', '"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"\\udfff"', '"x\\udc00y"', '"\\ud83d\\ude00"', '"\\uffff"', '"\\uFEFF"'])],
    [3, () => text(rng.pick(["' OR 1=1 --", '%', '_', '%%', '\\', '\\\\%', '%_%', '"', '\r\n', '\t', '\u202e', 'ǅ', 'İ', 'ß', '🦄', '١٢٣', '\u0085', '${x}', '{name}', '<script>', ']]>', 'null', 'true', '1', '-0', 'NaN'])) ],
    [3, () => text(rng.pick([
      '1990-12-31T23:59:60Z', '2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z', '+275760-09-13T00:00:00.000Z',
      '-000001-01-01T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00+25:00', '2026-01-01', '2026-01-01T00:00:00',
      '2026-01-01t00:00:00z', '1e400', '2026-01-01T00:00:00.0000000000000000001Z', 'yesterday',
    ]))],
    [2, () => text('x'.repeat(rng.pick([199, 200, 201, 255, 256, 1000, 65536, 300_000])))],
    [1, () => text(rng.chars('abc%_\\', rng.int(1, 40)))],
    [1, () => `"a${INVALID_UTF8}b"`],
  ]);
}

/** A value of any JSON type, often hostile. */
export function hostileValue(rng: Rng, depth = 0): JsonText {
  return rng.weighted<JsonText>([
    [4, () => rng.pick(HOSTILE_NUMBERS)],
    [4, () => hostileString(rng)],
    [2, () => rng.pick(['true', 'false', 'null'])],
    [1, () => (depth > 2 ? '[]' : array(Array.from({ length: rng.int(0, 3) }, () => hostileValue(rng, depth + 1))))],
    [1, () => (depth > 2 ? '{}' : hostileObject(rng, depth + 1))],
    [1, () => deepNesting(rng)],
  ]);
}

/** An object whose keys are themselves hostile: prototype keys, duplicates, empty, huge. */
export function hostileObject(rng: Rng, depth = 0): JsonText {
  const keys = ['__proto__', 'constructor', 'prototype', '', 'toString', 'hasOwnProperty', 'a', 'a', '_links', 'id', 'version', '\u0000', 'x'.repeat(300)];
  const entries: Array<[string, JsonText]> = Array.from({ length: rng.int(1, 4) }, () => [rng.pick(keys), depth > 2 ? '1' : hostileValue(rng, depth + 1)]);
  return object(entries);
}

/** Arrays or objects nested far past any sane depth (a recursive walker would overflow the stack). */
export function deepNesting(rng: Rng): JsonText {
  const depth = rng.pick([63, 64, 65, 100, 1000, 10_000, 100_000]);
  if (rng.chance(0.5)) return '['.repeat(depth) + ']'.repeat(depth);
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}
