import { writeMayHideRecord } from '../../auth/access.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { PATCH_TYPES } from '../../http/body-types.js';
import type { Json } from '../../http/openapi/components.js';
import { header, headerParameter } from '../../http/openapi/headers.js';
import { preferring } from '../../http/openapi/prefer-doc.js';
import { representations } from '../../http/openapi/representations.js';
import { expandParameter, listParameters } from './list-parameters.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { inputSchema, jsonPatchSchema, mergePatchSchema, pageSchema, recordSchema, type SchemaContext } from '../../http/openapi/schemas.js';



/** How the operations' records are documented: HAL records by default, another shape's where one is given. */
export interface RecordDoc {
  /** The content (media types and schemas) of an answer with one record. */
  content(r: ResourceDefinition, ctx: SchemaContext): Json;
  /** The query parameters of a read. */
  readParameters(r: ResourceDefinition, ctx: SchemaContext): Json[];
  /** The headers of every answer that carries a record (and of a 304 standing for one). */
  headers(ctx: SchemaContext): Json;
  /** The schema of a POST or PUT body. */
  input(r: ResourceDefinition, ctx: SchemaContext): Json;
}

const HAL_DOC: RecordDoc = {
  content: (r, ctx) => representations(recordSchema(r, ctx)),
  readParameters: (r, ctx) => [expandParameter(r, ctx)],
  headers: (ctx) => ({ ETag: header(ctx, 'etag'), 'Last-Modified': header(ctx, 'last-modified'), Vary: header(ctx, 'vary') }),
  input: inputSchema,
};

function recordResponse(r: ResourceDefinition, ctx: SchemaContext, description: string, headers: Record<string, unknown>, doc: RecordDoc): Json {
  return { description, headers: { ...doc.headers(ctx), ...headers }, content: doc.content(r, ctx) };
}

/** A 415 names the body types the method takes, each method in its own header. */
const unsupported = (ctx: SchemaContext, name: 'Accept-Post' | 'Accept' | 'Accept-Patch') => ({
  415: { [name]: header(ctx, name.toLowerCase() as 'accept-post' | 'accept' | 'accept-patch') },
});

function jsonBody(r: ResourceDefinition, ctx: SchemaContext, description: string, doc: RecordDoc): Json {
  const schema = doc.input(r, ctx);
  return { required: true, description, content: { 'application/json': { schema }, 'application/hal+json': { schema } } };
}

const created = (ctx: SchemaContext) => ({ Location: header(ctx, 'location') });

const BLIND = 'A caller that may write but not read this record gets no record: no body, ETag or Last-Modified.';

/**
 * A write's answer with the record, or, where a writer may be unable to read it (writeMayHideRecord),
 * also without it: `x-body-optional` marks a status whose body may be absent (OpenAPI has no word for it).
 */
function writtenResponse(r: ResourceDefinition, ctx: SchemaContext, blind: boolean, description: string, headers: Record<string, unknown>, doc: RecordDoc): Json {
  if (!blind) return recordResponse(r, ctx, description, headers, doc);
  const optional = { ETag: header(ctx, 'etag', false), 'Last-Modified': header(ctx, 'last-modified', false) };
  return { ...recordResponse(r, ctx, `${description}. ${BLIND}`, { ...optional, ...headers }, doc), 'x-body-optional': true };
}

/** The 204 a writer that may not read the record gets instead of a 200 with it. */
const blindNoContent = (ctx: SchemaContext, done: string) => ({
  '204': { description: `${done}; this caller may write but not read the record, so nothing of it is sent (no body, ETag or Last-Modified)`, headers: { Vary: header(ctx, 'vary') } },
});

/** The problems of a write a caller may make blind (read-not-allowed), and of one that sets references (reference-forbidden). */
function blindProblems(r: ResourceDefinition, ctx: SchemaContext, blind: boolean): Array<'read-not-allowed' | 'reference-forbidden'> {
  const references = r.fields.some((f) => f.type === 'reference' && ctx.resources.get(f.to!)?.access.read !== 'public');
  return [...(blind ? (['read-not-allowed'] as const) : []), ...(references ? (['reference-forbidden'] as const) : [])];
}

/** The documentation of the six record operations, by route kind. */
export const RECORD_OPERATIONS: Record<string, (r: ResourceDefinition, ctx: SchemaContext, doc?: RecordDoc) => OperationDoc> = preferring({
  list: (r, ctx) => ({
    description:
      `A page of ${r.name}, oldest first unless \`sort\` says otherwise. Filter with \`field=value\` or \`field[op]=value\`, ` +
      'page with the next/prev links (in `_links` and in the `Link` header). HEAD returns the same headers without a body.',
    parameters: listParameters(r, ctx),
    responses: { '200': { description: `A page of ${r.name}`, headers: { Link: header(ctx, 'link') }, content: representations(pageSchema(r, ctx)) } },
    problems: ['invalid-query', 'expand-forbidden', 'unavailable'],
  }),
  create: (r, ctx, doc = HAL_DOC) => ({
    description: `Creates a ${r.name} record with a server-chosen id. Without Idempotency-Key, sending the same request twice creates two records.`,
    parameters: [headerParameter(ctx, 'idempotency-key')],
    requestBody: jsonBody(r, ctx, `The new ${r.name} record`, doc),
    responses: { '201': writtenResponse(r, ctx, writeMayHideRecord(r, 'create'), 'Created; Location is the new record', created(ctx), doc) },
    problems: [
      'malformed-json', 'malformed-body', 'unique-violation', 'idempotency-in-flight', 'body-too-large', 'record-too-large', 'unsupported-media-type', 'validation-failed',
      'idempotency-key-reused', 'unavailable', ...blindProblems(r, ctx, false),
    ],
    problemHeaders: unsupported(ctx, 'Accept-Post'),
  }),
  read: (r, ctx, doc = HAL_DOC) => ({
    description:
      `One ${r.name} record with its ETag and Last-Modified. Send If-None-Match with an ETag you hold (or If-Modified-Since) to get 304 when it has not changed; ` +
      'If-Match or If-Unmodified-Since make it 412 when it has. HEAD returns the same headers without a body. ' +
      'With `expand`, the ETag covers the embedded records too and there is no Last-Modified (date preconditions are then ignored).',
    parameters: [...doc.readParameters(r, ctx), headerParameter(ctx, 'if-none-match'), headerParameter(ctx, 'if-modified-since'), headerParameter(ctx, 'if-match'), headerParameter(ctx, 'if-unmodified-since')],
    responses: {
      // With expand= there is no Last-Modified: deleting an embedded record moves no date forward.
      '200': recordResponse(r, ctx, `The ${r.name} record`, { 'Last-Modified': header(ctx, 'last-modified', false) }, doc),
      '304': { description: 'Not Modified: your copy is current (the headers of the 200 it stands for, no body)', headers: { ...doc.headers(ctx), 'Last-Modified': header(ctx, 'last-modified', false) } },
    },
    problems: ['not-found', 'invalid-query', 'expand-forbidden', 'precondition-failed', 'unavailable'],
  }),
  replace: (r, ctx, doc = HAL_DOC) => ({
    description:
      `Replaces the whole ${r.name} record (200), or creates it at this id (201). Idempotent: the same body twice leaves one state. ` +
      'Send If-Match with the ETag you read to avoid overwriting a change you have not seen; If-None-Match: * makes it create-only.',
    parameters: [
      headerParameter(ctx, 'if-match'),
      headerParameter(ctx, 'if-unmodified-since'),
      { name: 'If-None-Match', in: 'header', description: '`*`: create only; 412 if the record already exists', schema: { type: 'string', minLength: 1 } },
    ],
    requestBody: jsonBody(r, ctx, `The complete ${r.name} record`, doc),
    responses: {
      '200': recordResponse(r, ctx, 'Replaced', {}, doc),
      '201': writtenResponse(r, ctx, writeMayHideRecord(r, 'replace'), 'Created at this id', created(ctx), doc),
      ...(writeMayHideRecord(r, 'replace') ? blindNoContent(ctx, 'Replaced') : {}),
    },
    problems: [
      'invalid-id', 'malformed-json', 'malformed-body', 'unique-violation', 'precondition-failed', 'body-too-large', 'record-too-large', 'unsupported-media-type', 'validation-failed',
      'unavailable', ...conditional(r), ...blindProblems(r, ctx, writeMayHideRecord(r, 'replace')),
    ],
    problemHeaders: unsupported(ctx, 'Accept'),
  }),
  patch: (r, ctx, doc = HAL_DOC) => ({
    description:
      `Changes part of a ${r.name} record, atomically: a JSON Merge Patch (RFC 7396) or a JSON Patch (RFC 6902), chosen by Content-Type. ` +
      'The result is validated like a PUT body. Any other Content-Type is 415 with Accept-Patch.',
    parameters: [headerParameter(ctx, 'if-match'), headerParameter(ctx, 'if-unmodified-since'), headerParameter(ctx, 'idempotency-key')],
    requestBody: {
      required: true,
      description: 'The patch',
      content: { [PATCH_TYPES[0]]: { schema: mergePatchSchema(r, ctx) }, [PATCH_TYPES[1]]: { schema: jsonPatchSchema(ctx) } },
    },
    responses: { '200': recordResponse(r, ctx, 'Updated', {}, doc), ...(writeMayHideRecord(r, 'patch') ? blindNoContent(ctx, 'Updated') : {}) },
    problems: [
      'invalid-patch', 'malformed-json', 'not-found', 'patch-conflict', 'unique-violation', 'idempotency-in-flight', 'precondition-failed',
      'body-too-large', 'record-too-large', 'patch-too-large', 'unsupported-media-type', 'validation-failed', 'idempotency-key-reused', 'unavailable', ...conditional(r),
      ...blindProblems(r, ctx, writeMayHideRecord(r, 'patch')),
    ],
    problemHeaders: unsupported(ctx, 'Accept-Patch'),
  }),
  delete: (r, ctx) => ({
    description: `Deletes a ${r.name} record; deleting it again is 404. If-Match makes the delete conditional on the ETag you read.`,
    parameters: [headerParameter(ctx, 'if-match'), headerParameter(ctx, 'if-unmodified-since')],
    responses: { '204': { description: 'Deleted' } },
    problems: ['not-found', 'reference-conflict', 'precondition-failed', 'unavailable', ...conditional(r), ...(writeMayHideRecord(r, 'delete') ? (['read-not-allowed'] as const) : [])],
  }),
});

/** 428 for resources that require conditional writes. */
function conditional(r: ResourceDefinition): ['precondition-required'] | [] {
  return r.requireIfMatch ? ['precondition-required'] : [];
}
