import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import openApiBackend from 'openapi-backend';
import type { Document } from 'openapi-backend';
import { ALTERNATIVE_CONTENT } from '../http/openapi/representations.js';

// openapi-backend is CommonJS: its named exports come through the default export.
const { OpenAPIBackend } = openApiBackend as unknown as typeof import('openapi-backend');
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type Json = Record<string, any>;

/** One request of a session and the response it got, as seen on the wire. */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  /** Content-Type and body of the request, when it had one. */
  requestType?: string;
  requestBody?: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A response's media types: its content, and what a request preferring another type gets instead. */
const contentOf = (response: Json): Json => ({ ...response[ALTERNATIVE_CONTENT], ...response.content });

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const mediaType = (value: unknown) => String(value ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * OpenAPI 3.1 schemas are JSON Schema 2020-12: openapi-backend is given a 2020-12 Ajv (with the
 * standard formats) instead of its draft-07 default; everything else is openapi-backend's own.
 */
function ajv2020(_ajv: unknown, options: Json): Ajv2020 {
  const ajv = new Ajv2020({ ...options, strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** Every operation's responses of a dereferenced document, rewritten by `rewrite`. */
function view(definition: Json, rewrite: (response: Json) => Json): Json {
  const copy = structuredClone(definition);
  for (const item of Object.values<Json>(copy.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      for (const [status, response] of Object.entries<Json>(op.responses)) op.responses[status] = rewrite(response);
    }
  }
  return copy;
}

async function backend(definition: Json) {
  // quick: the document is OpenAPI 3.1, which openapi-backend's own (3.0) document check rejects;
  // the document is validated as 3.1 and linted by src/http/openapi/openapi.test.ts instead.
  const api = new OpenAPIBackend({ definition: definition as Document, quick: true, customizeAjv: ajv2020 as any });
  await api.init();
  return api;
}

/**
 * Checks real responses against an OpenAPI document with openapi-backend: the operation is found
 * by its router, the status must be documented, every header the document marks required must be
 * sent and every documented header must match its schema, the Content-Type must be documented and
 * the body must match that media type's schema. openapi-backend validates bodies only under
 * `application/json`, so each media type is checked through a view of the document in which that
 * media type's schemas stand under `application/json`.
 */
export class ConformanceChecker {
  private readonly byMediaType = new Map<string, Promise<InstanceType<typeof OpenAPIBackend>>>();

  private constructor(
    private readonly doc: Json,
    private readonly api: InstanceType<typeof OpenAPIBackend>,
    private readonly requiredHeaders: InstanceType<typeof OpenAPIBackend>,
    private readonly ajv: Ajv2020,
  ) {}

  /** A checker for `doc` (the document as the server serves it). */
  static async create(doc: Json): Promise<ConformanceChecker> {
    // As it travels: a built document may share objects between places, which the dereferencer mishandles.
    const api = await backend(JSON.parse(JSON.stringify(doc)));
    const definition = api.definition as Json;
    const requiredOnly = view(definition, (r) => ({ ...r, headers: Object.fromEntries(Object.entries<Json>(r.headers ?? {}).filter(([, h]) => h.required)) }));
    const ajv = ajv2020(undefined, {});
    // Request bodies are checked by JSON Pointer into the document as served, $refs and all.
    ajv.addSchema(doc, 'openapi.json');
    return new ConformanceChecker(definition, api, await backend(requiredOnly), ajv);
  }

  /** The violations of one exchange; empty when the document tells the truth about it. */
  async check(ex: Exchange): Promise<string[]> {
    const at = `${ex.method} ${ex.url} → ${ex.status}`;
    const [path, query = ''] = ex.url.split('?');
    const request = { method: ex.method, path: path!, query, headers: {} };
    const op = this.api.router.matchOperation(request) as Json | undefined;
    if (!op) return this.checkUnrouted(ex, at);
    const status = String(ex.status);
    const response = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
    if (!response) return [`${at}: status ${status} is not documented for ${op.operationId} (documented: ${Object.keys(op.responses).join(', ')})`];
    const out = this.checkAcceptedRequest(ex, op, at);
    const headerErrors = (api: InstanceType<typeof OpenAPIBackend>, setMatchType: string) =>
      api.validator.validateResponseHeaders(ex.headers, op.operationId, { statusCode: ex.status, setMatchType: setMatchType as any }).errors ?? [];
    for (const e of headerErrors(this.api, 'any')) out.push(`${at}: header ${e.instancePath} ${e.message}`);
    for (const e of headerErrors(this.requiredHeaders, 'superset')) out.push(`${at}: required header ${e.params?.missingProperty ?? e.instancePath} ${e.message}`);
    const type = mediaType(ex.headers['content-type']);
    if (ex.method === 'HEAD' || ex.status === 204 || ex.status === 304) {
      if (ex.body) out.push(`${at}: a body where none may be`);
      if (Object.keys(contentOf(response)).length) out.push(`${at}: the document gives a ${ex.method === 'HEAD' ? 'HEAD' : status} response a body`);
      return out;
    }
    // `x-body-optional`: the document says this status may come without a body (and so without a Content-Type).
    if (!ex.body && !type && response['x-body-optional']) return out;
    if (!contentOf(response)[type]) return [...out, `${at}: Content-Type ${type || '(none)'} is not documented (documented: ${Object.keys(contentOf(response)).join(', ') || 'no body'})`];
    const body = type.endsWith('json') ? JSON.parse(ex.body) : ex.body;
    const api = await this.forMediaType(type);
    for (const e of api.validator.validateResponse(body, op.operationId, ex.status).errors ?? []) out.push(`${at}: body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    return out;
  }

  /** A request body the server accepted (2xx) must be one the operation documents: its media type and schema. */
  private checkAcceptedRequest(ex: Exchange, op: Json, at: string): string[] {
    if (ex.requestBody === undefined || ex.status >= 300) return [];
    if (!op.requestBody) return [`${at}: a request body was accepted but the operation documents none`];
    const type = mediaType(ex.requestType);
    const documented = op.requestBody.content[type];
    if (!documented) return [`${at}: request Content-Type ${type} was accepted but is not documented`];
    const body = type.endsWith('json') ? JSON.parse(ex.requestBody) : type === 'application/x-www-form-urlencoded' ? Object.fromEntries(new URLSearchParams(ex.requestBody)) : undefined;
    if (body === undefined || !documented.schema) return [];
    const pointer = ['paths', op.path, op.method, 'requestBody', 'content', type, 'schema'].map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    const validate = this.ajv.getSchema(`openapi.json#/${pointer}`)!;
    return validate(body) ? [] : [`${at}: the accepted request body does not match the documented ${type} schema: ${this.ajv.errorsText(validate.errors)}`];
  }

  /**
   * A request no operation matches: a method the server implements nowhere is 501; a known path
   * with another method must be 405 with an Allow header naming exactly the documented methods;
   * any other path is 404; all of them problems.
   */
  private checkUnrouted(ex: Exchange, at: string): string[] {
    const path = ex.url.split('?')[0]!;
    const item = METHODS.map((method) => this.api.router.matchOperation({ method, path, headers: {} }) as Json | undefined).find(Boolean);
    const out: string[] = [];
    if (ex.status === 501) {
      // A method the server implements nowhere (RFC 9110 §15.6.2), whatever the path.
      if (METHODS.includes(ex.method.toLowerCase()) && ex.method !== 'TRACE') out.push(`${at}: ${ex.method} is a method the document uses, so it cannot be 501`);
    } else if (item) {
      const documented = Object.keys(this.doc.paths[item.path]).filter((m) => METHODS.includes(m)).map((m) => m.toUpperCase()).sort();
      const allow = String(ex.headers.allow ?? '').split(/,\s*/).filter(Boolean).sort();
      if (ex.status !== 405) out.push(`${at}: ${ex.method} is not documented on ${item.path}, so it must be 405`);
      if (allow.join() !== documented.join()) out.push(`${at}: Allow is "${allow.join(', ')}" but the document has ${documented.join(', ')}`);
    } else if (ex.status !== 404) {
      out.push(`${at}: no documented path matches, so it must be 404`);
    }
    if (mediaType(ex.headers['content-type']) !== 'application/problem+json') out.push(`${at}: not a problem+json answer`);
    else if (!this.ajv.validate(this.doc.components.schemas.Problem, JSON.parse(ex.body))) out.push(`${at}: the body is not a Problem`);
    return out;
  }

  private forMediaType(type: string): Promise<InstanceType<typeof OpenAPIBackend>> {
    let api = this.byMediaType.get(type);
    if (!api) {
      api = backend(view(this.api.definition as Json, (r) => (contentOf(r)[type] ? { ...r, content: { 'application/json': contentOf(r)[type] } } : r)));
      this.byMediaType.set(type, api);
    }
    return api;
  }
}
