import { readFileSync } from 'node:fs';
import { resolveAuthSettings } from '../../auth/auth-config.js';
import type { RestwellConfig } from '../../config/types.js';
import { defineResources, type ResourceDefinition } from '../../core/resource.js';
import { PROBLEMS, type ProblemCode } from '../../http/problems.js';
import { PATCH_TYPES } from '../../http/body-types.js';
import { Components, pascal, type Json } from '../../http/openapi/components.js';
import { header } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { isCollectionPost, type DocRoute } from '../../http/route.js';
import { problemResponses, problemSchema } from '../../http/openapi/problem-responses.js';
import { withCrossCuttingHeaders } from '../../http/openapi/cross-cutting-headers.js';
import { idSchema, type SchemaContext } from '../../http/openapi/schemas.js';
import { withHtmlAlternative } from '../../http/openapi/representations.js';
import { operationSecurity, securitySchemes } from '../../auth/http/openapi-security.js';
import { catalogFor } from '../catalog/catalog-input.js';
import { webhooksSection } from './webhooks-section.js';

/** The version of this Restwell, from package.json (the same file in the source tree and the build). */
export const PACKAGE = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string; license?: string };

const INFO_DESCRIPTION = `A resource API served by Restwell.

- **Representations**: \`application/json\` and \`application/hal+json\` get the same HAL body (\`_links\`, \`_embedded\`); \`text/html\` gets a browsable page (problems too), described in each response's \`x-alternative-content\`: what a request whose \`Accept\` prefers it is served instead, with the same status and headers. (Kept out of \`content\`, so that generated clients type the JSON body.)
- **Conditional requests**: every representation of a record has its own strong \`ETag\`, and every record a \`Last-Modified\`; \`If-None-Match\` / \`If-Modified-Since\` give 304 on reads, \`If-Match\` / \`If-Unmodified-Since\` give 412 when the record changed.
- **Methods**: every \`GET\` also answers \`HEAD\`; every path answers \`OPTIONS\` with \`Allow\`; any other method on a known path is 405 with \`Allow\`, a path that does not exist is 404, and a method the server does not know is 501 (all problems).
- **Errors**: RFC 9457 \`application/problem+json\`; each \`type\` is a page under \`/problems/{code}\`. The OAuth endpoints answer errors in RFC 6749 JSON, as OAuth clients expect.
- **Before any route**: a request the HTTP parser cannot read is 400 \`malformed-request\`, one that arrives too slowly 408 \`request-timeout\`, one whose headers are too large 431 \`headers-too-large\`, an \`Expect\` other than 100-continue 417 \`expectation-failed\`, and a connection beyond the per-client cap 429 \`too-many-connections\`; each is a problem, and the connection is then closed.
- **Rate limits**: metered operations carry \`RateLimit\` and \`RateLimit-Policy\`; past the quota they are 429 with \`Retry-After\`.
- **Retries**: \`POST\` and \`PATCH\` on records accept \`Idempotency-Key\`; a replayed answer carries \`Idempotent-Replayed: true\`. 503 (the database is unreachable) carries \`Retry-After\`.`;

/** The preconditions of a POST to a collection, which exists but has no ETag (checkPostPreconditions). */
const COLLECTION_PRECONDITIONS: Json[] = [
  { name: 'If-Match', in: 'header', description: '`*` holds (the collection exists); entity tags never match (a collection has no ETag): 412', schema: { type: 'string', minLength: 1 } },
  { name: 'If-None-Match', in: 'header', description: '`*` fails (the collection exists): 412; entity tags never match, so they hold', schema: { type: 'string', minLength: 1 } },
];

/** What the document is generated from: the config and the route table. */
export interface OpenApiInput {
  config: RestwellConfig;
  routes: DocRoute[];
}

/** Builds the OpenAPI 3.1 document of the API: one operation per row of the route table, plus OPTIONS per path. */
export function buildOpenApi({ config, routes }: OpenApiInput): Json {
  const ctx: SchemaContext = { components: new Components(), resources: new Map(defineResources(config).map((r) => [r.name, r])), config };
  for (const r of routes) if (r.resource) ctx.resources.set(r.resource.name, r.resource);
  const metering = resolveAuthSettings(config).rateLimit !== undefined;
  const paths: Record<string, Json> = {};
  const tags = new Map<string, string>();
  // Paths whose POST takes a body of known types, which OPTIONS advertises in Accept-Post.
  const acceptPost = new Set<string>();
  for (const route of routes) {
    // The front-end's catch-all (server.static) serves files, not API operations; OpenAPI paths cannot express it.
    if (route.path.includes('*')) continue;
    const path = openApiPath(route.path);
    if (route.method === 'POST' && !route.rawBody) acceptPost.add(path);
    const doc = operationDoc(route, ctx);
    const auth = operationSecurity(route);
    const metered = metering && auth.guarded;
    const tag = route.resource?.name ?? doc.tag ?? (path.split('/')[1] || 'api');
    tags.set(tag, tagDescription(tag, route.resource));
    // POSTs to a collection (and actions, whose handlers check them once their parent is found).
    const preconditions = isCollectionPost(route) || (route.method === 'POST' && route.kind === 'action');
    // Whatever writes to the database (a method other than GET that may find it unavailable) may find its disk full.
    const writes = route.method !== 'GET' && doc.problems.includes('unavailable');
    // Every operation can meet a bug: 500 `internal`, a problem without details, is declared everywhere.
    const problems: ProblemCode[] = [
      ...new Set([
        ...doc.problems, ...auth.problems, ...(metered ? (['rate-limited'] as const) : []), ...(preconditions ? (['precondition-failed'] as const) : []),
        ...(writes ? (['insufficient-storage'] as const) : []), 'internal' as const,
      ]),
    ];
    const parameters = [...(doc.parameters ?? []), ...(preconditions ? COLLECTION_PRECONDITIONS : [])];
    // A 403 other than the guard's insufficient scope (expand-forbidden, read-not-allowed…) has no challenge.
    const onlyScope403 = problems.every((c) => PROBLEMS[c].status !== 403 || c === 'forbidden');
    const challenge = auth.bearer
      ? { 400: { 'WWW-Authenticate': header(ctx, 'www-authenticate', false) }, 401: { 'WWW-Authenticate': header(ctx, 'www-authenticate') }, 403: { 'WWW-Authenticate': header(ctx, 'www-authenticate', onlyScope403) } }
      : {};
    const responses = mergeResponses(doc.responses, problemResponses(problems, ctx, { ...challenge, ...doc.problemHeaders }));
    if (doc.anyProblem) responses.default = { description: 'An error, as a problem', content: { 'application/problem+json': { schema: problemSchema(ctx) } } };
    const item = (paths[path] ??= { parameters: pathParameters(path, route.resource, doc.pathParameters) });
    item[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      description: doc.description,
      tags: [tag],
      ...(parameters.length ? { parameters } : {}),
      ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
      security: auth.security,
      responses: withCrossCuttingHeaders(responses, ctx, { metered, idempotent: (route.kind === 'create' || route.kind === 'patch') && !route.secretResponse }),
    };
  }
  addHeadOperations(paths);
  addOptionsOperations(paths, ctx, acceptPost);
  // The HTML pages a browser gets instead, each described once (a record's page, a problem's page).
  const htmlPage = (schema: Json) => ctx.components.schema(`html:${String(schema.description)}`, /problem/i.test(String(schema.description)) ? 'ProblemPage' : 'HtmlPage', () => schema);
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && 'responses' in op) op.responses = mapValues(op.responses as Record<string, Json>, (r) => withHtmlAlternative(r, htmlPage));
    }
  }
  for (const item of Object.values(paths)) if (!(item.parameters as Json[]).length) delete item.parameters;
  const publicUrl = config.server.publicUrl?.replace(/\/$/, '');
  // What subscribers receive; built before components are read, since it adds the event schemas.
  const webhooks = webhooksSection(ctx, catalogFor(config, ctx.resources));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Restwell API',
      version: PACKAGE.version,
      description: INFO_DESCRIPTION,
      contact: { name: 'Restwell', ...(publicUrl ? { url: publicUrl } : {}) },
      license: { name: PACKAGE.license ?? 'MIT', url: `https://spdx.org/licenses/${PACKAGE.license ?? 'MIT'}.html` },
    },
    servers: [{ url: publicUrl || '/', description: publicUrl ? 'This server (server.publicUrl)' : 'This server' }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    paths,
    webhooks,
    components: { ...ctx.components.toJSON(), securitySchemes: securitySchemes(ctx.resources.values(), routes) },
  };
}

/**
 * The documentation of a route: its own, or for a row without one (a feature's new route not yet
 * described) a valid operation from its summary, a JSON 2xx and the problem format, so adding a
 * row to the route table can never break `/openapi.json`.
 */
function operationDoc(route: DocRoute, ctx: SchemaContext): OperationDoc {
  if (route.doc) return route.doc(ctx);
  const status = route.method === 'POST' ? '201' : route.method === 'DELETE' ? '204' : '200';
  return {
    description: `${route.summary}.`,
    responses: { [status]: status === '204' ? { description: 'Done' } : { description: 'Success', content: { 'application/json': { schema: {} } } } },
    problems: [],
    anyProblem: true,
  };
}

/** `/characters/:id` → `/characters/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function pathParameters(path: string, resource: ResourceDefinition | undefined, known: Record<string, Json> = {}): Json[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => {
    // `{id}` is the route's resource's, unless the operation names another (a parent's, in a nested path).
    const own = name === 'id' && resource && !known.id;
    const { description, ...schema } = own ? idSchema(resource) : (known[name] ?? { type: 'string' });
    const text = own ? `The id of a ${resource.name} record (${String(description)})` : String(description ?? `The ${name}`);
    return { name, in: 'path', required: true, description: text, schema };
  });
}

const TAGS: Record<string, string> = {
  api: 'The API root, this description, the docs page and the problem types',
  operations: 'Liveness and readiness probes and Prometheus metrics, for load balancers, orchestrators and monitoring',
  events: 'The event log: every change to every record, oldest first',
  oauth: 'OAuth 2.0: the token, introspection and revocation endpoints, their discovery documents and the registered clients',
  'api-keys': 'API keys: bearer tokens an admin creates for scripts and services',
  webhooks: 'Inbound webhooks: the receiving endpoint of each configured source, and its inbox',
  'webhook-endpoints':
    'Outbound webhooks: subscribers that get every matching event of the log as a signed POST (Standard Webhooks), retried on a schedule, with a delivery log, redelivery and replay. Per-endpoint ordering is not promised: a retried event may arrive after later ones, so order by the event\'s `createdAt` or position and de-duplicate by `webhook-id`.',
};

function tagDescription(tag: string, resource?: ResourceDefinition): string {
  if (resource) return resource.description ?? `Records of ${resource.name}`;
  return TAGS[tag] ?? `Operations under /${tag}`;
}

/** Responses of an operation's own and of its problems, joined per status (e.g. an OAuth 400 and a problem 400). */
function mergeResponses(own: Record<string, Json>, problems: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = { ...problems, ...own };
  for (const [status, p] of Object.entries(problems)) {
    const o = own[status];
    if (!o) continue;
    out[status] = {
      description: `${String(o.description)}\n\n${String(p.description)}`,
      headers: { ...(p.headers as Json | undefined), ...(o.headers as Json | undefined) },
      content: { ...(o.content as Json | undefined), ...(p.content as Json | undefined) },
    };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

function mapValues<T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

/** HEAD on every path with GET: the same responses and headers, never a body (RFC 9110 §9.3.2). */
function addHeadOperations(paths: Record<string, Json>): void {
  for (const item of Object.values(paths)) {
    const get = item.get as Json | undefined;
    if (!get) continue;
    const { requestBody: _, ...rest } = get;
    item.head = {
      ...rest,
      operationId: `head${pascal(String(get.operationId))}`,
      summary: `${String(get.summary)} (headers only)`,
      description: `The headers GET would send, without the body. ${String(get.description)}`,
      responses: mapValues(get.responses as Record<string, Json>, ({ content: _c, ...r }) => r),
    };
  }
}

/** OPTIONS on every path: 204 with Allow, Accept-Patch where PATCH is allowed and Accept-Post where POST takes a body, as the server answers. */
function addOptionsOperations(paths: Record<string, Json>, ctx: SchemaContext, acceptPost: Set<string>): void {
  const used = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    const methods = Object.keys(item).filter((k) => k !== 'parameters' && k !== 'head').map((m) => m.toUpperCase());
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
    const base = `options${pascal(path.replace(/[{}]/g, '').replace(/\//g, '-')) || 'Root'}`;
    let operationId = base;
    for (let i = 2; used.has(operationId); i++) operationId = `${base}${i}`;
    used.add(operationId);
    const tag = (Object.values(item).find((op) => (op as Json).tags) as Json | undefined)?.tags;
    const named = path.includes('{');
    item.options = {
      operationId,
      summary: `Methods allowed on ${path}`,
      description: `204 with Allow: ${allow.join(', ')}${methods.includes('PATCH') ? `; Accept-Patch: ${PATCH_TYPES.join(', ')}` : ''}${acceptPost.has(path) ? '; Accept-Post: the body types POST takes' : ''}.${named ? ' 404 when the path names nothing, as GET would answer (asked as the caller).' : ''}`,
      tags: tag,
      security: [],
      responses: {
        '204': {
          description: 'The allowed methods',
          headers: {
            Allow: header(ctx, 'allow'),
            ...(methods.includes('PATCH') ? { 'Accept-Patch': header(ctx, 'accept-patch') } : {}),
            ...(acceptPost.has(path) ? { 'Accept-Post': header(ctx, 'accept-post') } : {}),
          },
        },
        ...(named ? problemResponses(['not-found'], ctx, {}) : {}),
      },
    };
  }
}
