import type { ResourceDefinition } from '../../core/resource.js';
import type { Json } from '../../http/openapi/components.js';
import { header, headerParameter } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import { appliedHeader } from '../../http/openapi/prefer-doc.js';
import { representations } from '../../http/openapi/representations.js';
import { recordSchema, type SchemaContext } from '../../http/openapi/schemas.js';
import type { Route } from '../../http/route.js';
import { runBatchRequest } from './batch.js';

const REFERENCES =
  'An item may use what an earlier item wrote: a string that is exactly `$N.name` (N the earlier item\'s 0-based index, name `id`, `version` or a field of its record) ' +
  'stands for that value with its JSON type, anywhere in the body and as the id in the url (`/characters/$0.id`). Write a literal string `$0.id` as `$$0.id` ' +
  '(a string of two or more `$` then a digit loses its first `$`).';

/** The documentation of `POST /batch`. */
export function batchOperation(ctx: SchemaContext): OperationDoc {
  const { maxRequests, maxBytes } = ctx.config.server.batch;
  const item = {
    type: 'object',
    required: ['method', 'url'],
    additionalProperties: false,
    properties: {
      method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'] },
      url: { type: 'string', description: '`/{collection}` for POST, `/{collection}/{id}` for PUT, PATCH and DELETE; the id may be a reference (`$0.id`)', examples: ['/characters', '/characters/$0.id'] },
      headers: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'The sub-request\'s own headers: Content-Type (a PATCH without one is a merge patch; `application/json-patch+json` makes it a JSON Patch), If-Match, If-None-Match, If-Unmodified-Since. Authorization and Idempotency-Key are the batch request\'s.',
      },
      body: { description: 'The body the route takes alone (a record, a merge patch or a JSON Patch)' },
    },
  };
  const response = {
    type: 'object',
    required: ['status', 'headers', 'body'],
    properties: {
      status: { type: 'integer', description: '201 created, 200 replaced or updated, 204 deleted (or written by a caller that may not read the record)' },
      headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Location, ETag and Last-Modified, as the route alone answers' },
      body: { description: 'The record (HAL) as the route alone answers, or null', oneOf: [{ type: 'object' }, { type: 'null' }] },
    },
  };
  return {
    tag: 'batch',
    description:
      `Runs up to ${maxRequests} write sub-requests (\`server.batch.maxRequests\`; a body of at most ${maxBytes} bytes, \`server.batch.maxBytes\`) in order, in one transaction: ` +
      'all of them are applied, each with its event (and so its outbound webhooks), or none. Each gets exactly the checks it would get alone, with this request\'s bearer token: ' +
      'its access rule (scopes, `owner`), Content-Type, preconditions and validation. When an item fails, nothing is applied and the answer has that item\'s status: ' +
      'a `batch-failed` problem with `index` (0-based) and `problem`, the item\'s own problem. Idempotency-Key covers the whole batch: a retry gets the first answer and applies nothing. ' +
      REFERENCES,
    parameters: [headerParameter(ctx, 'idempotency-key')],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { type: 'object', required: ['requests'], additionalProperties: false, properties: { requests: { type: 'array', minItems: 1, maxItems: maxRequests, items: item } } } } },
    },
    responses: {
      '200': {
        description: 'Every sub-request was applied; `responses` holds their answers, in order',
        headers: { Vary: header(ctx, 'vary') },
        content: { 'application/json': { schema: { type: 'object', required: ['responses'], properties: { responses: { type: 'array', items: response } } } } },
      },
    },
    problems: ['batch-failed', 'batch-too-large', 'malformed-json', 'malformed-body', 'body-too-large', 'idempotency-in-flight', 'idempotency-key-reused', 'unavailable'],
    anyProblem: true,
  };
}

/** The route of `POST /batch`: open to every caller (each sub-request checks its own access rule with the caller's token). */
export function batchRoutes(): Route[] {
  return [{ method: 'POST', path: '/batch', operationId: 'runBatch', summary: 'Run several writes in one transaction: all or none', handler: runBatchRequest, kind: 'create', access: 'public', doc: batchOperation }];
}

/** POST's documentation with the bulk form added: a JSON array creates its records in one transaction (bulk-create.ts). */
export function withBulkCreate(doc: OperationDoc, r: ResourceDefinition, ctx: SchemaContext): OperationDoc {
  const max = ctx.config.server.batch.maxRequests;
  const content = doc.requestBody?.content as Record<string, { schema: Json }> | undefined;
  if (!content) return doc;
  const bulk = (schema: Json) => ({ schema: { oneOf: [schema, { type: 'array', minItems: 1, maxItems: max, items: schema, description: `Up to ${max} records, created in one transaction` }] } });
  const page = { type: 'object', required: ['_links', 'count', '_embedded'], properties: { _links: { type: 'object' }, count: { type: 'integer' }, _embedded: { type: 'object', properties: { [r.name]: { type: 'array', items: recordSchema(r, ctx) } } } } };
  return {
    ...doc,
    description: `${doc.description} A JSON array creates one record per item (at most ${max}, \`server.batch.maxRequests\`) in one transaction, all or none: 200 with the records in \`_embedded\`, in the order sent; validation errors point into the array (\`/3/name\`). \`Prefer: handling=lenient\` applies to every item; \`return=minimal\` does not (the records are the answer: their ids are known from it alone).`,
    requestBody: { ...doc.requestBody, content: Object.fromEntries(Object.entries(content).map(([type, c]) => [type, bulk(c.schema)])) },
    responses: { ...doc.responses, '200': { description: 'Created every record of the array (a caller that may not read one gets its self link alone)', headers: { Vary: header(ctx, 'vary'), 'Preference-Applied': appliedHeader(ctx) }, content: representations(page) } },
    problems: [...doc.problems, 'batch-too-large'],
  };
}
