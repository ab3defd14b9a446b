import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary } from './vary.js';

/** The preferences of RFC 7240 that Restwell honours on writes. */
export interface Preferences {
  /** §4.2: answer with the record (`representation`, the default) or without a body (`minimal`). */
  return?: 'minimal' | 'representation';
  /** §4.4: refuse a body with unknown members (`strict`, the default) or drop them (`lenient`). */
  handling?: 'strict' | 'lenient';
}

/** One preference of a Prefer header: its name (lower-cased), its value, if any, and its parameters. */
interface Preference {
  name: string;
  value?: string;
  params: Map<string, string | undefined>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const KNOWN: { [K in keyof Preferences]-?: ReadonlyArray<NonNullable<Preferences[K]>> } = { return: ['minimal', 'representation'], handling: ['strict', 'lenient'] };

/**
 * Reads the `Prefer` header (RFC 7240 §2), one field or several (which are one comma-separated
 * list). Names are compared case-insensitively, values exactly, a quoted value as its unquoted
 * text. A server must ignore preferences it does not know and never fail because of them, so an
 * element that does not parse is skipped like an unknown one, and the rest still count. A
 * preference named twice counts only the first time (§2), except `return` and `handling` given
 * both their values (minimal and representation, strict and lenient): §4.2 and §4.4 call those
 * mutually exclusive, a client's mistake that may be treated as neither, and neither is safer here:
 * the default answer (the record; strict validation) is the one that tells and checks the most.
 */
export function parsePrefer(header: string | string[] | undefined): Preferences {
  const out: Preferences = {};
  if (header === undefined) return out;
  const seen = new Map<string, string | undefined>();
  const conflicting = new Set<string>();
  for (const element of splitOutsideQuotes([header].flat().join(','), ',')) {
    const pref = parsePreference(element);
    if (!pref) continue;
    if (!seen.has(pref.name)) seen.set(pref.name, pref.value);
    else if (seen.get(pref.name) !== pref.value && known(pref.name, pref.value) && known(pref.name, seen.get(pref.name))) conflicting.add(pref.name);
  }
  for (const name of Object.keys(KNOWN) as Array<keyof Preferences>) {
    const value = seen.get(name);
    if (conflicting.has(name) || !known(name, value)) continue;
    (out as Record<string, string>)[name] = value!;
  }
  return out;
}

/** True when `value` is one Restwell knows for the preference `name`. */
function known(name: string, value: string | undefined): boolean {
  return value !== undefined && Object.hasOwn(KNOWN, name) && (KNOWN[name as keyof Preferences] as readonly string[]).includes(value);
}

/** `token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] )`, or undefined when it is not one. */
function parsePreference(element: string): Preference | undefined {
  const [head, ...rest] = splitOutsideQuotes(element, ';');
  const first = pair(head!);
  if (!first) return undefined;
  const params = new Map<string, string | undefined>();
  for (const part of rest) {
    if (part.trim() === '') continue;
    const p = pair(part);
    if (!p) return undefined;
    if (!params.has(p.name)) params.set(p.name, p.value);
  }
  return { ...first, params };
}

/** `token [ BWS "=" BWS word ]`: an empty value (`x=` or `x=""`) is no value at all (§2). */
function pair(text: string): { name: string; value?: string } | undefined {
  const eq = text.indexOf('=');
  const name = (eq < 0 ? text : text.slice(0, eq)).trim();
  if (!TOKEN.test(name)) return undefined;
  if (eq < 0) return { name: name.toLowerCase() };
  const raw = text.slice(eq + 1).trim();
  const value = raw.startsWith('"') ? unquote(raw) : raw === '' || TOKEN.test(raw) ? raw : undefined;
  if (value === undefined) return undefined;
  return value === '' ? { name: name.toLowerCase() } : { name: name.toLowerCase(), value };
}

/** The text of a quoted-string (RFC 9110 §5.6.4), backslash escapes undone; undefined when it is not exactly one. */
function unquote(raw: string): string | undefined {
  const m = /^"((?:[^"\\]|\\.)*)"$/s.exec(raw);
  return m ? m[1]!.replace(/\\(.)/gs, '$1') : undefined;
}

/** Splits on `separator` outside quoted strings (a comma inside `"a,b"` is text). */
function splitOutsideQuotes(text: string, separator: ',' | ';'): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const parsed = new WeakMap<FastifyRequest, Preferences>();
const NONE: Preferences = Object.freeze({});

/** The request's preferences, read once. */
export function preferencesOf(request: FastifyRequest): Preferences {
  // Most requests send none: an entry in the WeakMap per request was ~1% of a POST's CPU profile.
  if (request.headers.prefer === undefined) return NONE;
  let prefs = parsed.get(request);
  if (!prefs) {
    prefs = parsePrefer(request.headers.prefer);
    parsed.set(request, prefs);
  }
  return prefs;
}

/**
 * Marks the answer as shaped by the request's Prefer header: `Vary: Prefer` whenever the request
 * sent one (the answer was chosen with it in view), and the preference applied, if any, added to
 * `Preference-Applied` (RFC 7240 §3) once however often this runs (a write's callback may be retried).
 */
export function preferenceApplied(request: FastifyRequest, reply: FastifyReply, applied?: `${keyof Preferences}=${string}`): void {
  if (request.headers.prefer !== undefined) addVary(reply, 'Prefer');
  if (!applied) return;
  const current = reply.getHeader('preference-applied');
  const names = current === undefined ? [] : String(current).split(',').map((n) => n.trim());
  if (names.includes(applied)) return;
  reply.header('preference-applied', [...names, applied].join(', '));
}
