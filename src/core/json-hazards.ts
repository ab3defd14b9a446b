/** What makes a parsed JSON value unfit to accept or store, and where in it. */
export interface JsonHazard {
  /**
   * `depth`: nests deeper than the limit; `number`: a number JSON.parse turned into ±Infinity
   * (e.g. `1e400`); `prototype-key`: a `__proto__` member, or a `constructor` holding `prototype`,
   * which the body parser refuses (prototype poisoning), so a value holding one could never be sent back;
   * `not-json`: a function or other non-JSON value (what a JSON Patch copies from an inherited member);
   * `lone-surrogate`: a string or member name holding half of a UTF-16 surrogate pair (`"\ud800"`),
   * which is no Unicode character, so no engine can store it as sent (RFC 8259 §8.2, I-JSON);
   * `duplicate-member`: an object naming one member twice (found in JSON text only; see json-members.ts).
   */
  kind: 'depth' | 'number' | 'prototype-key' | 'not-json' | 'lone-surrogate' | 'duplicate-member';
  /** JSON Pointer (RFC 6901) to the offending value. */
  pointer: string;
}

interface Step {
  node: object;
  depth: number;
  parent?: Step;
  key?: string;
}

/** ES2024's String.prototype.isWellFormed: Node 20 has it, the ES2023 lib this project compiles against does not declare it. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * The first hazard in a parsed JSON value, or undefined when it is safe to validate, store and
 * serialize. Measured without recursion, so a value nested 100,000 levels cannot overflow the
 * stack here; depth counts a scalar as 0, `[]` and `{}` as 1.
 */
export function findJsonHazard(value: unknown, maxDepth: number): JsonHazard | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return { kind: 'number', pointer: '' };
  if (typeof value === 'string' && !isWellFormed(value)) return { kind: 'lone-surrogate', pointer: '' };
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Step[] = [{ node: value, depth: 1 }];
  while (stack.length) {
    const step = stack.pop()!;
    if (step.depth > maxDepth) return { kind: 'depth', pointer: pointerOf(step) };
    const node = step.node as Record<string, unknown>;
    if (!Array.isArray(node) && isPoisoned(node)) {
      return { kind: 'prototype-key', pointer: pointerOf(step, Object.hasOwn(node, '__proto__') ? '__proto__' : 'constructor') };
    }
    for (const key of Object.keys(node)) {
      if (!isWellFormed(key)) return { kind: 'lone-surrogate', pointer: pointerOf(step, key) };
      const child = node[key];
      switch (typeof child) {
        case 'object':
          if (child !== null) stack.push({ node: child, depth: step.depth + 1, parent: step, key });
          break;
        case 'number':
          if (!Number.isFinite(child)) return { kind: 'number', pointer: pointerOf(step, key) };
          break;
        case 'string':
          if (!isWellFormed(child)) return { kind: 'lone-surrogate', pointer: pointerOf(step, key) };
          break;
        case 'boolean':
        case 'undefined': // an absent member, as JSON.stringify treats it
          break;
        default:
          return { kind: 'not-json', pointer: pointerOf(step, key) };
      }
    }
  }
  return undefined;
}

/** The same test as Fastify's body parser (secure-json-parse with both actions set to `error`). */
function isPoisoned(node: Record<string, unknown>): boolean {
  if (Object.hasOwn(node, '__proto__')) return true;
  const c = Object.hasOwn(node, 'constructor') ? node.constructor : undefined;
  return c !== null && typeof c === 'object' && Object.hasOwn(c, 'prototype');
}

/** The pointer to `step`'s value, or to its member `key`. */
function pointerOf(step: Step, key?: string): string {
  const keys = key === undefined ? [] : [key];
  for (let s: Step | undefined = step; s?.key !== undefined; s = s.parent) keys.push(s.key);
  return jsonPointer(keys.reverse());
}

/**
 * The JSON Pointer (RFC 6901) of a path of member names and indexes. It is shown to people (a
 * problem's detail, an import's message), so a lone surrogate in a name is written as its `\uXXXX`
 * escape: the text stays valid Unicode, and says what was sent.
 */
export function jsonPointer(path: ReadonlyArray<string | number>): string {
  let pointer = '';
  for (const step of path) {
    const name = typeof step === 'number' ? String(step) : step.replaceAll('~', '~0').replaceAll('/', '~1');
    pointer += `/${isWellFormed(name) ? name : name.replace(/\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  }
  return pointer;
}

/** What is wrong at `hazard.pointer`, for a problem's `errors[].detail` or `detail`. */
export function describeJsonHazard(hazard: JsonHazard, maxDepth: number): string {
  switch (hazard.kind) {
    case 'depth':
      return `nests deeper than ${maxDepth} levels, the most this server accepts (server.maxJsonDepth)`;
    case 'number':
      return `is a number too large for a JSON number here (the largest magnitude is ${Number.MAX_VALUE}); send it as a string if it must be exact`;
    case 'prototype-key':
      return 'is a "__proto__" member, or a "constructor" member holding "prototype": refused, as such members poison object prototypes';
    case 'not-json':
      return 'is not a JSON value; a JSON Patch "from" must name a member the document has, not an inherited one';
    case 'lone-surrogate':
      return 'holds an unpaired UTF-16 surrogate (a \\uD800-\\uDFFF escape without its other half), which is not a Unicode character: text must be valid Unicode (RFC 8259 §8.2, I-JSON RFC 7493 §2.1); send the character itself or both halves of its pair';
    case 'duplicate-member':
      return 'repeats a member name of its object: member names must be unique (RFC 8259 §4, I-JSON RFC 7493 §2.3), since parsers disagree on which value wins';
  }
}
