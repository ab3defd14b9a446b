import { jsonPointer, type JsonHazard } from './json-hazards.js';

/** A container open at the scan position, and where in it the scan is. */
interface Frame {
  object: boolean;
  /** The member name (object) or index (array) the scan is at; undefined before an object's first member. */
  at?: string | number;
  /** In an object: the next string is a member name. */
  expectName: boolean;
  /** The names seen so far: the first alone, a set from the second on (most objects are small). */
  first?: string;
  names?: Set<string>;
}

/** What a scan of JSON text found. */
interface Scan {
  duplicate?: JsonHazard;
  /** The path of the innermost value holding the offset asked about. */
  pathAt?: Array<string | number>;
}

/**
 * The first object member whose name its object already has, in valid JSON text (that JSON.parse
 * accepted): JSON.parse keeps the last value silently, other parsers the first, so a body that
 * repeats a name means different things to different readers (I-JSON, RFC 7493 §2.3). Names
 * compare as parsed, so `"a"` and `"\u0061"` are the same name. One pass, without recursion.
 */
export function findDuplicateMember(text: string): JsonHazard | undefined {
  return scan(text, Infinity).duplicate;
}

/**
 * The JSON Pointer of the innermost value of valid JSON `text` that holds the character at
 * `offset` (a member name counts as its member): how a problem found by position is named.
 */
export function pointerAtOffset(text: string, offset: number): string {
  return jsonPointer(scan(text, offset).pathAt ?? []);
}

function scan(text: string, stopAt: number): Scan {
  const stack: Frame[] = [];
  const path = () => stack.flatMap((f) => (f.at === undefined ? [] : [f.at]));
  for (let i = 0; i < text.length; i++) {
    if (i >= stopAt) return { pathAt: path() };
    const top = stack[stack.length - 1];
    switch (text.charCodeAt(i)) {
      case 0x22: {
        const end = closingQuote(text, i);
        if (top?.object && top.expectName) {
          const raw = text.slice(i + 1, end);
          const name: string = raw.includes('\\') ? JSON.parse(text.slice(i, end + 1)) : raw;
          top.at = name;
          top.expectName = false;
          if (repeats(top, name)) return { duplicate: { kind: 'duplicate-member', pointer: jsonPointer(path()) } };
        }
        if (end >= stopAt) return { pathAt: path() };
        i = end;
        break;
      }
      case 0x7b: // {
        stack.push({ object: true, expectName: true });
        break;
      case 0x5b: // [
        stack.push({ object: false, at: 0, expectName: false });
        break;
      case 0x7d: // }
      case 0x5d: // ]
        stack.pop();
        break;
      case 0x2c: // ,
        if (top.object) top.expectName = true;
        else top.at = (top.at as number) + 1;
        break;
    }
  }
  return { pathAt: stopAt === Infinity ? undefined : path() };
}

/** The index of the quote that closes the string opening at `open` (one not escaped by a backslash). */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Records `name` as a member of `frame`'s object; true when it already was one. */
function repeats(frame: Frame, name: string): boolean {
  if (frame.names) {
    if (frame.names.has(name)) return true;
    frame.names.add(name);
  } else if (frame.first === undefined) {
    frame.first = name;
  } else {
    if (frame.first === name) return true;
    frame.names = new Set([frame.first, name]);
  }
  return false;
}
