import { STRING_ID_PATTERN, STRING_ID_RULE } from '../../config/string-id.js';
import type { RestwellConfig } from '../../config/types.js';
import { bodySchema, fieldSchema } from '../../core/field-schema.js';
import { MAX_PATCH_OPERATIONS } from '../../core/patch-budget.js';
import type { FieldDefinition, ResourceDefinition } from '../../core/resource.js';
import { pascal, type Components, type Json } from './components.js';

/** What every part of one document shares: its components, resources (reference targets) and config. */
export interface SchemaContext {
  components: Components;
  resources: Map<string, ResourceDefinition>;
  config: RestwellConfig;
}

/** The schema of a record id of `resource` (as JSON and in the URL). */
export function idSchema(resource: ResourceDefinition | undefined): Json {
  if (resource?.idType === 'string') {
    return { type: 'string', pattern: STRING_ID_PATTERN, minLength: 1, maxLength: 64, description: `A string id, ${STRING_ID_RULE}, case-sensitive (a UUID v7 when the server chooses it on POST)` };
  }
  return resource?.idType === 'uuid'
    ? { type: 'string', format: 'uuid', description: 'A UUID (v7, time-ordered, when the server chooses it)' }
    : { type: 'integer', minimum: 1, description: 'A positive integer chosen by the server on POST' };
}

/** A field's value schema as the server sends it (optional fields may be null). */
function outputFieldSchema(field: FieldDefinition, ctx: SchemaContext): Json {
  const s = fieldSchema(field, field.to ? ctx.resources.get(field.to) : undefined);
  // An optional enum holds null when unset: the enum list itself must allow it.
  if (field.type === 'enum' && !field.required && Array.isArray(s.enum) && !s.enum.includes(null)) s.enum = [...s.enum, null];
  // Which collection a reference points at, for clients that build forms from this document (the web console's picker).
  if (field.type === 'reference' && field.to) s['x-restwell-reference'] = field.to;
  return s;
}

/** `{ href, title?, templated? }`: a HAL link object. */
export function halLinkSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('hal-link', 'HalLink', () => ({
    type: 'object',
    description: 'A HAL link (draft-kelly-json-hal): where a related resource is',
    required: ['href'],
    properties: {
      href: { type: 'string', description: 'The target, a path on this server (a URI template when templated)' },
      title: { type: 'string' },
      templated: { type: 'boolean', description: 'True when href is an RFC 6570 URI template' },
    },
  }));
}

/** `_links` with the given relations (required ones listed), each a HAL link. */
export function linksSchema(ctx: SchemaContext, rels: string[], required: string[], description: string): Json {
  const link = halLinkSchema(ctx);
  return {
    type: 'object',
    description,
    readOnly: true,
    required,
    properties: Object.fromEntries(rels.map((r) => [r, link])),
    additionalProperties: link,
  };
}

/** The HAL representation of one record: id, every declared field, version, timestamps and `_links`. */
export function recordSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`record:${r.name}`, pascal(r.name), () => ({
    type: 'object',
    description: `One ${r.name} record${r.description ? ` (${r.description})` : ''}, as served by GET (JSON and HAL alike). Every declared field is present; an unset optional field is null.`,
    required: ['id', ...r.fields.map((f) => f.name), 'version', 'createdAt', 'updatedAt', '_links'],
    properties: recordProperties(r, ctx),
  }));
}

/**
 * A record without links, as json-server-shaped answers carry it (its links are in the `Link`
 * header); a singular resource's object without its id too.
 */
export function plainRecordSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`plain:${r.name}`, `${pascal(r.name)}Plain`, () => {
    const { _links, id, ...properties } = recordProperties(r, ctx);
    return {
      type: 'object',
      description: `${r.singular ? `The ${r.name} object` : `One ${r.name} record`} as json-server serves it: no _links (they are in the Link header). Every declared field is present; an unset optional field is null.`,
      required: [...(r.singular ? [] : ['id']), ...r.fields.map((f) => f.name), 'version', 'createdAt', 'updatedAt'],
      properties: r.singular ? properties : { id, ...properties },
    };
  });
}

/** With `fields=`: a sparse record, the members of a record of which only id and `_links` are always there. */
function sparseRecordSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`sparse:${r.name}`, `${pascal(r.name)}Sparse`, () => ({
    type: 'object',
    description: `With fields=…: a sparse ${r.name} record (id, the chosen members, _links)`,
    required: ['id', '_links'],
    properties: recordProperties(r, ctx),
  }));
}

/** The members of a record's representation, each with its schema (recordSchema's properties). */
function recordProperties(r: ResourceDefinition, ctx: SchemaContext): Json {
  const refs = r.fields.filter((f) => f.type === 'reference').map((f) => f.name);
  return {
    id: { ...idSchema(r), readOnly: true },
    ...Object.fromEntries(r.fields.map((f) => [f.name, outputFieldSchema(f, ctx)])),
    version: { type: 'integer', minimum: 1, readOnly: true, description: 'Starts at 1 and grows by 1 on every change' },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    updatedAt: { type: 'string', format: 'date-time', readOnly: true },
    // A singular resource is no collection: its record links to itself only (and its references).
    _links: r.singular
      ? linksSchema(ctx, ['self', ...refs], ['self'], 'self, and one link per set reference field')
      : linksSchema(ctx, ['self', 'collection', ...refs], ['self', 'collection'], 'self, the collection, and one link per set reference field'),
  };
}

/** What POST and PUT accept: the core's body schema (the same one the server validates with). */
export function inputSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`input:${r.name}`, `${pascal(r.name)}Input`, () => ({
    description:
      `The fields of a ${r.name} record, as sent with POST and PUT. Server-managed members (id, version, createdAt, updatedAt) ` +
      'may be sent back only with their current values, and `_links` is ignored, so a GET body can be PUT back as it is.',
    ...bodySchema(r, [...ctx.resources.values()]),
  }));
}

/** An RFC 7396 merge patch of a record: any subset of the fields; null removes an optional value. */
export function mergePatchSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`merge-patch:${r.name}`, `${pascal(r.name)}MergePatch`, () => {
    const body = bodySchema(r, [...ctx.resources.values()]) as { properties: Record<string, Json> };
    return {
      type: 'object',
      description: `A JSON Merge Patch (RFC 7396) of a ${r.name} record: members to change; null removes an optional value. The result must still be a valid record.`,
      additionalProperties: false,
      properties: body.properties,
    };
  });
}

/** An RFC 6902 JSON Patch document, applied to the record's plain JSON representation. */
export function jsonPatchSchema(ctx: SchemaContext): { $ref: string } {
  // RFC 6901: '/'-separated tokens in which '~' is always escaped (~0 for '~', ~1 for '/').
  const pointer = { type: 'string', pattern: '^(/([^~/]|~[01])*)*$', description: 'A JSON Pointer (RFC 6901) into the record, e.g. /name' };
  // One variant per operation (RFC 6902 §4), each naming its op as a constant: a discriminated union.
  const operation = (op: string, members: Record<string, Json>) => ({
    type: 'object',
    title: `${op} operation`,
    required: ['op', ...Object.keys(members)],
    properties: { op: { type: 'string', const: op }, ...members },
  });
  const value = { description: 'Any JSON value' };
  return ctx.components.schema('json-patch', 'JsonPatch', () => ({
    type: 'array',
    maxItems: MAX_PATCH_OPERATIONS,
    description: 'A JSON Patch (RFC 6902): operations applied in order, all or nothing. The result must still be a valid record, no larger than `server.recordLimit` (an operation that would cross it stops the patch: 413).',
    items: {
      oneOf: [
        operation('add', { path: pointer, value }),
        operation('remove', { path: pointer }),
        operation('replace', { path: pointer, value }),
        operation('move', { from: pointer, path: pointer }),
        operation('copy', { from: pointer, path: pointer }),
        operation('test', { path: pointer, value }),
      ],
    },
  }));
}

/** A page of a collection: `_links` (self, first, next, prev), `count`, `total` on request, `_embedded`. */
export function pageSchema(r: ResourceDefinition, ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema(`page:${r.name}`, `${pascal(r.name)}Page`, () => ({
    type: 'object',
    description: `A page of ${r.name} (HAL).`,
    required: ['_links', 'count', '_embedded'],
    properties: {
      _links: linksSchema(ctx, ['self', 'first', 'next', 'prev'], ['self', 'first'], 'next and prev appear when there is such a page; follow them rather than building cursors'),
      count: { type: 'integer', minimum: 0, description: 'Records on this page' },
      total: { type: 'integer', minimum: 0, description: 'Records matching the filters on all pages; only with total=true' },
      _embedded: {
        type: 'object',
        required: [r.name],
        properties: {
          [r.name]: {
            type: 'array',
            items: {
              anyOf: [recordSchema(r, ctx), sparseRecordSchema(r, ctx)],
            },
          },
        },
      },
    },
  }));
}

/** The attempt log of a delivery (inbound or outbound): its attempts, oldest first, linked to the delivery. */
export function attemptListSchema(ctx: SchemaContext, attempt: Json): Json {
  return {
    type: 'object',
    required: ['_links', 'count', '_embedded'],
    properties: {
      _links: linksSchema(ctx, ['self', 'delivery'], ['self', 'delivery'], 'self and the delivery'),
      count: { type: 'integer', minimum: 0 },
      _embedded: { type: 'object', required: ['attempts'], properties: { attempts: { type: 'array', items: attempt } } },
    },
  };
}
