import { writeMayHideRecord } from '../../auth/access.js';
import { bodySchema } from '../../core/field-schema.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { JSON_BODY_TYPES } from '../../http/body-types.js';
import type { Json } from '../../http/openapi/components.js';
import { header, headerParameter } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { recordProperties, type SchemaContext } from '../../http/openapi/schemas.js';
import type { Route } from '../../http/route.js';
import { mergeSingular, readSingular, setSingular } from './singular-handlers.js';

/** `blog-posts` → `BlogPosts`, for component names. */
const pascalName = (r: ResourceDefinition) => r.name.charAt(0).toUpperCase() + r.name.slice(1).replace(/[-_](.)/g, (_m, c: string) => c.toUpperCase());

/** The bare object json-server answers with: the fields, plus Restwell's version and timestamps (no id, no links). */
function bareSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`bare:${r.name}`, `${pascalName(r)}Object`, () => {
    const { id: _id, _links: _l, ...properties } = recordProperties(r, ctx) as Record<string, Json>;
    return {
      type: 'object',
      description: `The ${r.name} object as json-server serves it: every declared field (null when unset), version, createdAt and updatedAt`,
      required: [...r.fields.map((f) => f.name), 'version', 'createdAt', 'updatedAt'],
      properties,
    };
  });
}

function objectResponse(r: ResourceDefinition, ctx: SchemaContext, description: string, extra: Record<string, unknown> = {}): Json {
  return { description, headers: { ETag: header(ctx, 'etag'), 'Last-Modified': header(ctx, 'last-modified'), ...extra }, content: { 'application/json': { schema: bareSchema(r, ctx) } } };
}

/** A set's answer, or, where a writer may be unable to read the object, also without it (see record-operations.ts). */
function setResponse(r: ResourceDefinition, ctx: SchemaContext, blind: boolean, description: string, extra: Record<string, unknown> = {}): Json {
  if (!blind) return objectResponse(r, ctx, description, extra);
  const optional = { ETag: header(ctx, 'etag', false), 'Last-Modified': header(ctx, 'last-modified', false) };
  return { ...objectResponse(r, ctx, `${description}; a caller that may write but not read it gets no body`, { ...optional, ...extra }), 'x-body-optional': true };
}

/** What PUT and POST take: the fields, and the system members a front-end read (ignored, so they may come back as they were). */
function inputObjectSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`bare-input:${r.name}`, `${pascalName(r)}ObjectInput`, () => {
    const { properties, required } = bodySchema(r, [...ctx.resources.values()]) as { properties: Record<string, Json>; required: string[] };
    const ignored = { description: 'Ignored: the server sets it' };
    return {
      type: 'object',
      description: `The whole ${r.name} object, as sent with PUT and POST; version, createdAt and updatedAt are ignored, so what GET gave can be sent back`,
      additionalProperties: false,
      properties: { ...properties, version: ignored, createdAt: ignored, updatedAt: ignored },
      required,
    };
  });
}

function body(r: ResourceDefinition, ctx: SchemaContext, description: string): Json {
  return { required: true, description, content: { 'application/json': { schema: inputObjectSchema(r, ctx) } } };
}

const conditional = (r: ResourceDefinition) => (r.requireIfMatch ? (['precondition-required'] as const) : []);
const blindProblems = (r: ResourceDefinition, blind: boolean) => (blind ? (['read-not-allowed'] as const) : []);
const WRITE_PROBLEMS = ['malformed-json', 'malformed-body', 'unique-violation', 'precondition-failed', 'body-too-large', 'record-too-large', 'unsupported-media-type', 'validation-failed', 'unavailable'] as const;
const noContent = { '204': { description: 'Done; this caller may write but not read the object, so nothing of it is sent' } };

function docs(r: ResourceDefinition): Record<'read' | 'put' | 'patch' | 'post', (ctx: SchemaContext) => OperationDoc> {
  const preconditions = (ctx: SchemaContext) => [headerParameter(ctx, 'if-match'), headerParameter(ctx, 'if-unmodified-since')];
  const blindPut = writeMayHideRecord(r, 'replace');
  return {
    read: (ctx) => ({
      description: `The ${r.name} object, bare, as json-server serves it (404 until it is set). If-None-Match makes it 304 when unchanged, If-Match 412 when changed.`,
      parameters: [headerParameter(ctx, 'if-none-match'), headerParameter(ctx, 'if-modified-since'), ...preconditions(ctx)],
      responses: { '200': objectResponse(r, ctx, `The ${r.name} object`), '304': { description: 'Not Modified: your copy is current', headers: { ETag: header(ctx, 'etag'), 'Last-Modified': header(ctx, 'last-modified') } } },
      problems: ['not-found', 'precondition-failed', 'unavailable'],
    }),
    put: (ctx) => ({
      description: `Replaces the ${r.name} object whole (200), or creates it (201). Members version, createdAt and updatedAt in the body are ignored.`,
      parameters: preconditions(ctx),
      requestBody: body(r, ctx, `The whole ${r.name} object`),
      responses: { '200': setResponse(r, ctx, false, 'Replaced'), '201': setResponse(r, ctx, blindPut, 'Created', { Location: header(ctx, 'location') }), ...(blindPut ? noContent : {}) },
      problems: [...WRITE_PROBLEMS, ...conditional(r), ...blindProblems(r, blindPut)],
      problemHeaders: { 415: { Accept: header(ctx, 'accept') } },
    }),
    patch: (ctx) => ({
      description: `Merges the body's top-level members into the ${r.name} object (json-server's shallow merge, not RFC 7396: a member set to null becomes null); 404 until it is set.`,
      parameters: [...preconditions(ctx), headerParameter(ctx, 'idempotency-key')],
      requestBody: { required: true, description: 'The members to change', content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '200': setResponse(r, ctx, false, 'Updated'), ...(writeMayHideRecord(r, 'patch') ? noContent : {}) },
      problems: ['invalid-patch', 'not-found', 'idempotency-in-flight', 'idempotency-key-reused', ...WRITE_PROBLEMS, ...conditional(r), ...blindProblems(r, writeMayHideRecord(r, 'patch'))],
      problemHeaders: { 415: { 'Accept-Patch': header(ctx, 'accept-patch') } },
    }),
    post: (ctx) => ({
      description: `Sets the ${r.name} object (creates or replaces it whole), answering 201 as json-server does.`,
      parameters: preconditions(ctx),
      requestBody: body(r, ctx, `The whole ${r.name} object`),
      responses: { '201': setResponse(r, ctx, blindPut, 'Set', { Location: header(ctx, 'location') }) },
      problems: [...WRITE_PROBLEMS, ...conditional(r), ...blindProblems(r, blindPut)],
      problemHeaders: { 415: { 'Accept-Post': header(ctx, 'accept-post') } },
    }),
  };
}

/**
 * The rows of each singular resource that answers as json-server (compat `json-server`): its one
 * object at `/{name}`, bare, read with GET, set with PUT or POST (201, as json-server does), merged
 * with PATCH (application/json, json-server's Object.assign). json-server has no DELETE here, so
 * neither has this: 405 with Allow.
 */
export function jsonServerSingularRoutes(resources: Iterable<ResourceDefinition>): Route[] {
  const routes: Route[] = [];
  for (const r of resources) {
    if (!r.singular || r.compat !== 'json-server') continue;
    const path = `/${r.name}`;
    const name = r.name.charAt(0).toUpperCase() + r.name.slice(1);
    const doc = docs(r);
    routes.push(
      { method: 'GET', path, operationId: `get${name}`, summary: `Read the ${r.name} object`, handler: (c) => readSingular(c, r), kind: 'read', resource: r, doc: doc.read },
      { method: 'PUT', path, operationId: `put${name}`, summary: `Replace the ${r.name} object`, handler: (c) => setSingular(c, r, 'PUT'), kind: 'replace', resource: r, doc: doc.put },
      { method: 'PATCH', path, operationId: `patch${name}`, summary: `Merge members into the ${r.name} object`, handler: (c) => mergeSingular(c, r), kind: 'patch', resource: r, doc: doc.patch, bodyTypes: JSON_BODY_TYPES },
      // Sets rather than adds, so it passes the rules of a PUT (update and create), not only create.
      { method: 'POST', path, operationId: `set${name}`, summary: `Set the ${r.name} object`, handler: (c) => setSingular(c, r, 'POST'), kind: 'replace', resource: r, doc: doc.post },
    );
  }
  return routes;
}
