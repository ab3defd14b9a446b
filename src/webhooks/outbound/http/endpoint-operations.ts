import { PATCH_TYPES } from '../../../http/body-types.js';
import type { Json } from '../../../http/openapi/components.js';
import { header, headerParameter } from '../../../http/openapi/headers.js';
import { logPageParameters, logPageResponse } from '../../../http/openapi/log-page-doc.js';
import type { OperationDoc } from '../../../http/openapi/operation-doc.js';
import { representations } from '../../../http/openapi/representations.js';
import { jsonPatchSchema, type SchemaContext } from '../../../http/openapi/schemas.js';
import { createInputSchema, endpointSchema, endpointWithSecretSchema, mergePatchSchema, replaceInputSchema } from './endpoint-schemas.js';

/** The tag every outbound webhook operation is listed under. */
export const TAG = 'webhook-endpoints';

/** `{id}`: an endpoint id. */
export const endpointId = { id: { type: 'string', minLength: 1, description: 'The id of a webhook endpoint (`ep_…`)' } };

/** The headers of an answer that carries an endpoint (and of a 304 standing for one). */
export const endpointHeaders = (ctx: SchemaContext) => ({ ETag: header(ctx, 'etag'), 'Last-Modified': header(ctx, 'last-modified'), Vary: header(ctx, 'vary') });

const endpointResponse = (ctx: SchemaContext, description: string): Json => ({ description, headers: endpointHeaders(ctx), content: representations(endpointSchema(ctx)) });

/** A JSON request body (both JSON media types) of this schema. */
export function jsonBody(schema: Json, description: string, required = true): Json {
  return { required, description, content: { 'application/json': { schema }, 'application/hal+json': { schema } } };
}

/** The answer that shows a secret once: create and rotation. */
export function withSecretResponse(ctx: SchemaContext, description: string): Json {
  return {
    description,
    headers: { ...endpointHeaders(ctx), Location: header(ctx, 'location'), 'Cache-Control': header(ctx, 'cache-control') },
    content: representations(endpointWithSecretSchema(ctx)),
  };
}

const conditionalWrite = (ctx: SchemaContext) => [headerParameter(ctx, 'if-match'), headerParameter(ctx, 'if-unmodified-since')];

/** The six operations on endpoints themselves, by operationId. */
export const ENDPOINT_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  listWebhookEndpoints: (ctx) => ({
    description: 'Every webhook endpoint, oldest first, a page at a time (follow `next`, present only while more endpoints exist); never a secret, only its hint.',
    parameters: logPageParameters('Endpoints', false),
    responses: { '200': logPageResponse(ctx, 'A page of endpoints', 'webhook-endpoints', endpointSchema(ctx), false) },
    problems: ['invalid-query', 'unavailable'],
    tag: TAG,
  }),
  createWebhookEndpoint: (ctx) => ({
    description:
      'Subscribes a URL to this API\'s events: it receives every event committed from now on that its `eventTypes` match, POSTed as JSON and signed ' +
      '(Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`). The response is the only place its signing secret appears: ' +
      'it is stored encrypted, never shown again, and not replayed for an Idempotency-Key.',
    requestBody: jsonBody(createInputSchema(ctx), 'The new endpoint'),
    responses: { '201': withSecretResponse(ctx, 'Created; the body carries the secret, once') },
    problems: ['malformed-json', 'malformed-body', 'body-too-large', 'unsupported-media-type', 'validation-failed', 'unavailable'],
    problemHeaders: { 415: { 'Accept-Post': header(ctx, 'accept-post') } },
    tag: TAG,
  }),
  getWebhookEndpoint: (ctx) => ({
    description: 'One endpoint with its ETag: its settings, health (disabledReason, failingSince) and the hints of the secrets it signs with. If-None-Match gives 304 when it has not changed.',
    pathParameters: endpointId,
    parameters: [headerParameter(ctx, 'if-none-match'), headerParameter(ctx, 'if-modified-since'), headerParameter(ctx, 'if-match'), headerParameter(ctx, 'if-unmodified-since')],
    responses: {
      '200': endpointResponse(ctx, 'The endpoint'),
      '304': { description: 'Not Modified: your copy is current', headers: endpointHeaders(ctx) },
    },
    problems: ['not-found', 'precondition-failed', 'unavailable'],
    tag: TAG,
  }),
  replaceWebhookEndpoint: (ctx) => ({
    description:
      'Replaces what a user sets on an endpoint; a GET body may be PUT back as it is (read-only members are ignored). Endpoints are made by POST, so an unknown id is 404. ' +
      'Send If-Match with the ETag you read to avoid overwriting a change you have not seen. The secret changes only by rotation.',
    pathParameters: endpointId,
    parameters: conditionalWrite(ctx),
    requestBody: jsonBody(replaceInputSchema(ctx), 'The whole endpoint'),
    responses: { '200': endpointResponse(ctx, 'Replaced') },
    problems: ['malformed-json', 'malformed-body', 'not-found', 'precondition-failed', 'body-too-large', 'unsupported-media-type', 'validation-failed', 'unavailable'],
    problemHeaders: { 415: { Accept: header(ctx, 'accept') } },
    tag: TAG,
  }),
  patchWebhookEndpoint: (ctx) => ({
    description:
      'Changes part of an endpoint, atomically: a JSON Merge Patch (RFC 7396) or a JSON Patch (RFC 6902) of the endpoint as GET shows it; the result is checked like a PUT body. ' +
      '`{"enabled": true}` re-enables an endpoint the dispatcher disabled; it resumes where it stopped.',
    pathParameters: endpointId,
    parameters: [...conditionalWrite(ctx), headerParameter(ctx, 'idempotency-key')],
    requestBody: { required: true, description: 'The patch', content: { [PATCH_TYPES[0]]: { schema: mergePatchSchema(ctx) }, [PATCH_TYPES[1]]: { schema: jsonPatchSchema(ctx) } } },
    responses: { '200': endpointResponse(ctx, 'Updated') },
    problems: [
      'invalid-patch', 'malformed-json', 'not-found', 'patch-conflict', 'idempotency-in-flight', 'precondition-failed', 'body-too-large',
      'patch-too-large', 'record-too-large', 'unsupported-media-type', 'validation-failed', 'idempotency-key-reused', 'unavailable',
    ],
    problemHeaders: { 415: { 'Accept-Patch': header(ctx, 'accept-patch') } },
    tag: TAG,
  }),
  deleteWebhookEndpoint: (ctx) => ({
    description: 'Unsubscribes an endpoint: nothing more is sent to it, and its deliveries and their attempts are deleted with it. If-Match makes it conditional on the ETag you read.',
    pathParameters: endpointId,
    parameters: conditionalWrite(ctx),
    responses: { '204': { description: 'Deleted' } },
    problems: ['not-found', 'precondition-failed', 'unavailable'],
    tag: TAG,
  }),
};
