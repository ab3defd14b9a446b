import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { prepareImport } from '../../src/cli/import-file.js';
import { resolveConfig } from '../../src/config/load.js';
import { LOOPBACK_ORIGINS } from '../../src/http/cors.js';
import { defineResources } from '../../src/core/resource.js';
import { loadImport } from '../../src/json-server/import/load-import.js';
import { openStore } from '../../src/store/open.js';
import type { TestEngine } from '../../src/test-support/engines.js';

/** One request of the corpus, sent alike to both servers. */
export interface ParityRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, as a front-end writes it (the query is sent as is, not re-encoded). */
  path: string;
  body?: unknown;
  /** Tells apart requests of the same method and path (two POSTs of different bodies) where differences are listed. */
  label?: string;
}

/** A corpus step: a request for both servers, and requests sent to one of them alone afterwards to keep both states equal. */
export interface ParityStep extends ParityRequest {
  /** Restwell-only requests that bring its state in line with json-server's after an intentional difference (each must succeed). */
  thenOnRestwell?: ParityRequest[];
  /** The same for json-server (undoing what it accepted and Restwell refused). */
  thenOnJsonServer?: ParityRequest[];
  /** A POST whose created record (on whichever server created one) is deleted again, when the two answers may differ. */
  undoCreate?: boolean;
}

/** The DELETE that undoes a POST answered with 201 (its record's id in the body), or nothing. */
export function undoOf(step: ParityRequest, answer: Answer): ParityRequest | undefined {
  const id = (answer.body as { id?: unknown } | null)?.id;
  if (answer.status !== 201 || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  return { method: 'DELETE', path: `${step.path.split('?')[0]}/${id}` };
}

/** What one server answered, as far as the comparison goes. */
export interface Answer {
  status: number;
  body: unknown;
  totalCount: string | null;
  link: string | null;
  location: string | null;
  /** Access-Control-Allow-Origin. */
  allowOrigin: string | null;
  /** Access-Control-Expose-Headers, as a sorted list of lower-case names. */
  expose: string[];
}

/** The aspects compared. */
export type Aspect = 'status' | 'body' | 'x-total-count' | 'link' | 'location' | 'cors';

/** A server under comparison: its base URL and how to stop it. */
export interface Running {
  base: string;
  close(): Promise<void>;
}

/** `request` as the key a difference is listed under: `GET /posts?_page=0`, `POST /notes [taken id]`. */
export const keyOf = (r: ParityRequest) => `${r.method} ${r.path}${r.label ? ` [${r.label}]` : ''}`;

/**
 * json-server 0.17.4 through its programmatic API (create, defaults without the logger, router of
 * an in-memory copy of `db`), listening on a free port of 127.0.0.1.
 */
export async function startJsonServer(db: Record<string, unknown>): Promise<Running> {
  const jsonServer = createRequire(import.meta.url)('json-server') as {
    create(): { use(...h: unknown[]): void; listen(port: number, host: string): Server };
    defaults(o: { logger: boolean }): unknown[];
    router(db: unknown): unknown;
  };
  const app = jsonServer.create();
  app.use(jsonServer.defaults({ logger: false }));
  // The router keeps (and mutates) the object it is given: a deep copy leaves `db` as generated.
  app.use(jsonServer.router(structuredClone(db)));
  // json-server logs the stack of every 500 (a POST of a taken id) on the console: kept off the test's output.
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    if (!/^Error: Insert failed, duplicate id/.test(String(args[0]))) consoleError(...args);
  };
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      console.error = consoleError;
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * Restwell serving `file` as `restwell import` would load it: the data file read and inferred by
 * the import's own code (prepareImport), loaded into a fresh database of `engine` (loadImport, as
 * `importInto` does, without its progress lines), then served with that config plus
 * `compat: json-server`, `serve <file.json>`'s CORS origins, and every resource open to reads and writes.
 */
export async function startRestwell(engine: TestEngine, dir: string, file: string): Promise<Running & { server: RestwellServer }> {
  const database = engine.freshUrl();
  mkdirSync(dir, { recursive: true });
  const prepared = prepareImport(file, { db: database, config: join(dir, `${engine.name}.restwell.yaml`) });
  const resources = Object.fromEntries(Object.entries(prepared.plan.resources).map(([name, r]) => [name, { ...r, access: { read: 'public', write: 'public' } }]));
  // As `serve <file.json>` runs it: CORS for pages served from this machine on any port (json-server allows every origin).
  const config = resolveConfig({ compat: 'json-server', server: { cors: { origins: LOOPBACK_ORIGINS } }, resources }, { env: {}, overrides: { database } });
  const store = await openStore(database);
  try {
    await loadImport(store, defineResources(config), prepared.plan, {
      source: prepared.source,
      replace: false,
      maxJsonDepth: config.server.maxJsonDepth,
      recordLimit: config.server.recordLimit,
      marker: { file: prepared.path, sha256: prepared.sha256 },
    });
  } finally {
    await store.close();
  }
  const server = await createServer(config, { logger: false });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { server, base: `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`, close: () => server.close() };
}

/** Sends one request and reads what is compared. */
export async function send(base: string, r: ParityRequest): Promise<Answer> {
  const res = await fetch(`${base}${r.path}`, {
    method: r.method,
    // As a browser front-end on another origin (a dev server) sends it.
    headers: { origin: 'http://localhost:5173', ...(r.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: r.body === undefined ? undefined : JSON.stringify(r.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? '' : JSON.parse(text);
  } catch {
    // not JSON (json-server's 500 stack trace, a JSONP answer): compared as text
  }
  const expose = (res.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean).sort();
  return { status: res.status, body, totalCount: res.headers.get('x-total-count'), link: res.headers.get('link'), location: res.headers.get('location'), allowOrigin: res.headers.get('access-control-allow-origin'), expose };
}

const SYSTEM = ['version', 'createdAt', 'updatedAt'];

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && 'id' in v;

/**
 * A body without Restwell's system fields: removed from the answer's record(s) and from the records
 * embedded or expanded into them (objects with an `id`), never from other nested JSON values. Applied
 * to both answers: json-server keeps such members when a front-end sends them back.
 */
export function withoutSystemFields(body: unknown, depth = 0): unknown {
  if (Array.isArray(body)) return body.map((b) => (isRecord(b) ? withoutSystemFields(b, depth) : b));
  if (body === null || typeof body !== 'object' || depth > 3) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (SYSTEM.includes(k)) continue;
    out[k] = isRecord(v) || (Array.isArray(v) && v.some(isRecord)) ? withoutSystemFields(v, depth + 1) : v;
  }
  return out;
}

/**
 * A Link header as rel → the target's path and query (sorted name=value pairs): json-server's
 * targets are absolute URLs of its own host, so only what follows the host is compared.
 */
export function linkSemantics(header: string | null): Record<string, string> | null {
  // json-server sends an empty Link when a page has no neighbours (an empty or only page): no links either way.
  if (header === null || header.trim() === '') return null;
  const out: Record<string, string> = {};
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^<([^>]*)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (!m) {
      out[`unparsed:${part}`] = part;
      continue;
    }
    const url = new URL(m[1]!, 'http://host.invalid');
    const params = [...url.searchParams.entries()].map(([k, v]) => `${k}=${v}`).sort();
    for (const rel of m[2]!.split(/\s+/)) out[rel] = `${url.pathname}?${params.join('&')}`;
  }
  return out;
}

/** The path of a Location header (json-server's is absolute). */
export const locationPath = (location: string | null) => (location === null ? null : new URL(location, 'http://host.invalid').pathname);

/** Which general differences (parity-corpus.ts GENERAL_DIFFERENCES) apply to a request. */
export interface Leniency {
  /** A GET of one record: a Link json-server does not send is not compared. */
  recordRead?: boolean;
  /** A whole, unsorted list: arrays of records with string ids are compared in id order. */
  stringIdOrder?: boolean;
}

/**
 * What differs between json-server's answer and Restwell's, aspect by aspect (the view compared,
 * both sides); only the status when that differs. Always: Restwell's system members are left out,
 * and so are the null members of its records that json-server's record lacks.
 */
export function compareAnswers(js: Answer, rw: Answer, leniency: Leniency = {}): Array<{ aspect: Aspect; jsonServer: unknown; restwell: unknown }> {
  const out: Array<{ aspect: Aspect; jsonServer: unknown; restwell: unknown }> = [];
  const differ = (a: unknown, b: unknown) => !isDeepStrictEqual(a, b);
  // Another status makes everything else another answer (an error has no page or records to compare).
  if (js.status !== rw.status) return [{ aspect: 'status', jsonServer: `${js.status} ${brief(js.body, 200)}`, restwell: `${rw.status} ${brief(rw.body, 300)}` }];
  const order = (body: unknown) => (leniency.stringIdOrder ? inStringIdOrder(body) : body);
  const jsBody = order(withoutSystemFields(js.body));
  const rwBody = withoutNullsAbsentIn(order(withoutSystemFields(rw.body)), jsBody);
  if (differ(jsBody, rwBody)) out.push({ aspect: 'body', jsonServer: jsBody, restwell: rwBody });
  if (js.totalCount !== rw.totalCount) out.push({ aspect: 'x-total-count', jsonServer: js.totalCount, restwell: rw.totalCount });
  const jsLink = linkSemantics(js.link);
  const rwLink = linkSemantics(rw.link);
  if (differ(jsLink, rwLink) && !(leniency.recordRead && jsLink === null)) out.push({ aspect: 'link', jsonServer: jsLink, restwell: rwLink });
  // What a front-end on another origin may read: both allow its origin, and Restwell exposes at least what json-server
  // does (X-Total-Count, and Link with _page, on lists; Location on a 201).
  if (js.allowOrigin !== rw.allowOrigin || js.expose.some((h) => !rw.expose.includes(h))) {
    out.push({ aspect: 'cors', jsonServer: `allow ${js.allowOrigin}; expose ${js.expose.join(', ')}`, restwell: `allow ${rw.allowOrigin}; expose ${rw.expose.join(', ')}` });
  }
  if (js.status === 201 && locationPath(js.location) !== locationPath(rw.location)) out.push({ aspect: 'location', jsonServer: locationPath(js.location), restwell: locationPath(rw.location) });
  return out;
}

/**
 * Restwell's body without the null members its records have where json-server's record (the one
 * with the same id, at the same place) has no such member: a record holds every field of its
 * resource, and a field the row never had reads null.
 */
export function withoutNullsAbsentIn(rw: unknown, js: unknown): unknown {
  if (Array.isArray(rw) && Array.isArray(js)) {
    const byId = new Map(js.filter(isRecord).map((r) => [r.id, r]));
    return rw.map((r, i) => withoutNullsAbsentIn(r, isRecord(r) ? byId.get(r.id) : js[i]));
  }
  if (rw === null || typeof rw !== 'object' || Array.isArray(rw) || js === null || typeof js !== 'object' || Array.isArray(js)) return rw;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rw)) {
    if (v === null && !(k in js)) continue;
    out[k] = withoutNullsAbsentIn(v, (js as Record<string, unknown>)[k]);
  }
  return out;
}

/** The body with every array of records with string ids sorted by id (code units, as both servers compare strings). */
export function inStringIdOrder(body: unknown): unknown {
  if (Array.isArray(body)) {
    const items = body.map(inStringIdOrder);
    return items.length && items.every((r) => isRecord(r) && typeof r.id === 'string') ? items.sort((a, b) => (String((a as { id: string }).id) < String((b as { id: string }).id) ? -1 : 1)) : items;
  }
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, inStringIdOrder(v)]));
}

/**
 * Where two JSON values first differ, for the diffs file: the JSON pointer and both values there
 * (arrays of different lengths say so first).
 */
export function firstDifference(a: unknown, b: unknown, pointer = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${pointer}/${i}`);
      if (d) return a.length === b.length ? d : `lengths ${a.length} vs ${b.length}; first at ${d}`;
    }
    return `${pointer || '/'}: lengths ${a.length} vs ${b.length}`;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (!(k in a) || !(k in b)) return `${pointer}/${k}: ${k in a ? brief(x, 120) : '(absent)'} vs ${k in b ? brief(y, 120) : '(absent)'}`;
      const d = firstDifference(x, y, `${pointer}/${k}`);
      if (d) return d;
    }
  }
  return `${pointer || '/'}: ${brief(a, 160)} vs ${brief(b, 160)}`;
}

/** A short rendering of a value for the diffs file. */
export function brief(value: unknown, max = 400): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** Writes the diffs file the lead reads (best effort: a missing folder is no test failure). */
export function writeDiffs(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch {
    // the file is a convenience for whoever works on the profile
  }
}
