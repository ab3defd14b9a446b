import { authorization, type FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import { hostileString, hostileValue, toBytes } from './json-text.js';
import type { Rng } from './prng.js';
import { percentEncode } from './grammar-query.js';
import { mutatedValue, resolve, validValue, type Schema } from './schema-values.js';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}

interface Operation {
  method: string;
  template: string;
  parameters: Parameter[];
  bodies: Array<{ type: string; schema?: Schema }>;
}

const operationsCache = new WeakMap<object, Operation[]>();

/** Every operation of the document, with its parameters (path-level and operation-level, `$ref`s resolved). */
function operations(doc: any): Operation[] {
  let ops = operationsCache.get(doc);
  if (ops) return ops;
  ops = [];
  for (const [template, item] of Object.entries<any>(doc.paths ?? {})) {
    const shared: Parameter[] = (item.parameters ?? []).map((p: any) => resolve(doc, p));
    for (const [method, op] of Object.entries<any>(item)) {
      if (method === 'parameters') continue;
      const parameters = [...shared, ...(op.parameters ?? []).map((p: any) => resolve(doc, p))];
      const bodies = Object.entries<any>(op.requestBody?.content ?? {}).map(([type, media]) => ({ type, schema: media.schema }));
      ops.push({ method: method.toUpperCase(), template, parameters, bodies });
    }
  }
  operationsCache.set(doc, ops);
  return ops;
}

/** A string form of a JSON value for a path, query or header (arrays comma-joined, as `explode: false`). */
function plain(json: string): string {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : JSON.stringify(v);
  } catch {
    return json;
  }
}

/** A parameter value: mostly what the schema allows, otherwise something hostile. */
function parameterValue(rng: Rng, ctx: FuzzContext, p: Parameter, template: string): string {
  if (p.in === 'path' && p.name === 'id' && rng.chance(0.6)) {
    const existing = ctx.records[template.replace(/\/\{id\}.*$/, '')];
    if (existing?.length) return existing[rng.int(0, existing.length - 1)]!.split('/').pop()!;
  }
  if (p.in === 'path' && p.name === 'source' && rng.chance(0.8)) return rng.pick(Object.keys(ctx.sources));
  if (rng.chance(0.55)) return plain(validValue(rng, ctx.doc, p.schema));
  return plain(rng.chance(0.5) ? hostileString(rng) : hostileValue(rng));
}

/**
 * A request built from the OpenAPI document: a documented operation with parameters and a body
 * from its schemas, then (mostly) mutated: wrong types, missing and extra members, boundaries.
 */
export function openapiRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const op = rng.pick(operations(ctx.doc));
  const path = op.template.replace(/\{(\w+)\}/g, (_m, name) => {
    const p = op.parameters.find((x) => x.in === 'path' && x.name === name) ?? { name, in: 'path' as const };
    return percentEncode(parameterValue(rng, ctx, p, op.template));
  });
  const query = new URLSearchParams();
  const headers: Record<string, string> = { ...authorization(rng, ctx) };
  for (const p of op.parameters) {
    if (p.in === 'path' || !rng.chance(p.in === 'header' ? 0.4 : 0.15)) continue;
    const value = parameterValue(rng, ctx, p, op.template);
    if (p.in === 'query') query.append(p.name, value);
    else if (/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) headers[p.name.toLowerCase()] = value;
  }
  let body: Buffer | undefined;
  if (op.bodies.length) {
    const chosen = rng.pick(op.bodies);
    const json = rng.chance(0.25) ? validValue(rng, ctx.doc, chosen.schema) : mutatedValue(rng, ctx.doc, chosen.schema);
    body = toBytes(json, rng);
    headers['content-type'] = chosen.type;
  }
  const qs = query.toString();
  return { origin: `openapi ${op.method} ${op.template}`, method: op.method, path: qs ? `${path}?${qs}` : path, headers, body };
}
