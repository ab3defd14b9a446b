import { array, deepNesting, hostileObject, hostileString, hostileValue, HOSTILE_NUMBERS, object, text, type JsonText } from './json-text.js';
import type { Rng } from './prng.js';

/** A JSON Schema as found in the OpenAPI document (only what the generators read). */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
}

/** Resolves a local `$ref` (`#/components/…`) against the document, repeatedly. */
export function resolve(doc: unknown, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 10; i++) {
    s = s.$ref.slice(2).split('/').reduce((node: any, key) => node?.[key], doc) ?? {};
  }
  return s;
}

/** A value the schema accepts (as far as a generator can tell without solving patterns). */
export function validValue(rng: Rng, doc: unknown, schema: Schema | undefined, depth = 0): JsonText {
  const s = resolve(doc, schema);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum?.length) return JSON.stringify(rng.pick(s.enum));
  const variants = s.oneOf ?? s.anyOf;
  if (variants?.length) return validValue(rng, doc, rng.pick(variants), depth);
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  const type = types.length ? rng.pick(types) : undefined;
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return text(new Date(Date.UTC(2020, 0, 1) + rng.int(0, 3e8) * 1000).toISOString());
      if (s.format === 'uuid') return text('0190a8c2-1b7e-7c3d-9f00-' + rng.chars('0123456789abcdef', 12));
      return text(rng.chars('abcdefghijklmnopqrstuvwxyz ABC-', rng.int(Math.max(1, s.minLength ?? 1), Math.min(s.maxLength ?? 24, 24))));
    case 'integer':
      return String(rng.int(s.minimum ?? 0, Math.min(s.maximum ?? 1000, 1_000_000)));
    case 'number':
      return String((s.minimum ?? 0) + rng.float() * ((s.maximum ?? 1000) - (s.minimum ?? 0)));
    case 'boolean':
      return rng.pick(['true', 'false']);
    case 'null':
      return 'null';
    case 'array':
      return array(Array.from({ length: rng.int(0, 3) }, () => (depth > 3 ? '1' : validValue(rng, doc, s.items, depth + 1))));
    case 'object':
      return validObject(rng, doc, s, depth);
    default:
      // No type: any JSON value (e.g. `json` fields).
      return depth > 2 ? '1' : rng.pick(['1', '"text"', 'null', 'true', '[1,"a"]', '{"k":{"n":[1,2]}}']);
  }
}

function validObject(rng: Rng, doc: unknown, s: Schema, depth: number): JsonText {
  const required = new Set(s.required ?? []);
  const entries: Array<[string, JsonText]> = [];
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    if (required.has(name) || rng.chance(0.6)) entries.push([name, depth > 3 ? '1' : validValue(rng, doc, prop, depth + 1)]);
  }
  return object(entries);
}

/**
 * A value from the schema, then broken in one way a client could break it: a wrong type, a
 * missing or extra member, a boundary number, a hostile string, prototype keys, duplicates, depth.
 */
export function mutatedValue(rng: Rng, doc: unknown, schema: Schema | undefined): JsonText {
  const s = resolve(doc, schema);
  const props = Object.entries(s.properties ?? {});
  if (!props.length || rng.chance(0.15)) {
    return rng.weighted<JsonText>([
      [3, () => hostileValue(rng)],
      [1, () => deepNesting(rng)],
      [1, () => rng.pick(['', ' ', 'nul', '{', '[', '{"a":1,}', '{"a":1}{}', '{"a":1} x', '\ufeff{}', '{"a":01}', "{'a':1}", '{"a":NaN}', '{"a":Infinity}', '{"a":"\\x41"}', '{"a":"\\u12"}'])],
    ]);
  }
  const required = new Set(s.required ?? []);
  const entries: Array<[string, JsonText]> = props.filter(([name]) => required.has(name) || rng.chance(0.6)).map(([name, p]) => [name, validValue(rng, doc, p, 1)]);
  const mutations = rng.int(1, 3);
  for (let m = 0; m < mutations; m++) {
    const [name, prop] = rng.pick(props);
    rng.weighted<void>([
      [4, () => entries.push([name, wrongValue(rng, doc, prop)])],
      [1, () => entries.splice(0, entries.length, ...entries.filter(([k]) => k !== name))],
      [1, () => entries.push([rng.pick(['extra', 'id', 'version', 'createdAt', 'updatedAt', '_links', '_embedded', 'owner', 'NAME', `${name} `]), hostileValue(rng)])],
      [1, () => entries.push([rng.pick(['__proto__', 'constructor', 'prototype']), rng.pick(['{"admin":true}', '{"prototype":{"polluted":1}}', 'null', '1', hostileObject(rng)])])],
      [1, () => entries.unshift([name, validValue(rng, doc, prop, 1)])],
    ]);
  }
  return object(entries);
}

/** A value of the wrong type or past the schema's bounds for one member. */
function wrongValue(rng: Rng, doc: unknown, schema: Schema): JsonText {
  const s = resolve(doc, schema);
  return rng.weighted<JsonText>([
    [3, () => hostileValue(rng)],
    [2, () => rng.pick(HOSTILE_NUMBERS)],
    [2, () => hostileString(rng)],
    [1, () => (s.maximum !== undefined ? String(s.maximum + rng.pick([0, 1, 0.5])) : s.minimum !== undefined ? String(s.minimum - rng.pick([0, 1, 0.5])) : hostileValue(rng))],
    [1, () => (s.maxLength !== undefined ? text('é'.repeat(s.maxLength + rng.pick([0, 1]))) : hostileString(rng))],
  ]);
}
