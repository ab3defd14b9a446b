import type { Json } from '../../../http/openapi/components.js';
import { header, headerParameter } from '../../../http/openapi/headers.js';
import { LOG_PAGING_RULE, logPageParameters, logPageResponse } from '../../../http/openapi/log-page-doc.js';
import type { OperationDoc } from '../../../http/openapi/operation-doc.js';
import { representations } from '../../../http/openapi/representations.js';
import { attemptListSchema, linksSchema, type SchemaContext } from '../../../http/openapi/schemas.js';
import { attemptSchema, deliverySchema } from './delivery-schemas.js';
import { SECRET_SCHEMA } from './endpoint-schemas.js';
import { endpointId, jsonBody, TAG, withSecretResponse } from './endpoint-operations.js';

const deliveryId = { ...endpointId, did: { type: 'string', minLength: 1, description: 'The id of a delivery of that endpoint (`msg_…`)' } };

const rotation: Json = {
  type: 'object',
  additionalProperties: false,
  description: 'Both members are optional: `{}` generates a secret and keeps the previous one signing for webhooks.outbound.rotationOverlap',
  properties: {
    secret: { ...SECRET_SCHEMA, description: 'The new secret (`whsec_` + base64 of 24 to 64 bytes); generated when left out' },
    overlap: { type: 'string', pattern: '^\\d+\\s*(ms|s|m|h|d)$', description: 'How long the previous secret keeps signing beside the new one, 0s to 30d (e.g. `24h`); `0s` retires it at once', example: '24h' },
  },
};

const replay: Json = {
  type: 'object',
  additionalProperties: false,
  required: ['since'],
  properties: {
    since: { type: 'string', format: 'date-time', description: 'Events committed at or after this time are sent again' },
    failedOnly: { type: 'boolean', default: false, description: 'Only deliveries that were given up on' },
  },
};

/** Secret rotation, deliveries, their attempts and replays, by operationId. */
export const DELIVERY_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  rotateWebhookEndpointSecret: (ctx) => ({
    description:
      'Rotates the signing secret. The new one is in the response, once; the previous one keeps signing until now + overlap, so each delivery ' +
      'carries both signatures meanwhile and receivers can switch without missing one. If-Match is honoured.',
    pathParameters: endpointId,
    parameters: [headerParameter(ctx, 'if-match'), headerParameter(ctx, 'if-unmodified-since')],
    requestBody: jsonBody(rotation, 'The new secret and the overlap, both optional (send `{}`)'),
    responses: { '201': withSecretResponse(ctx, 'Rotated; the body carries the new secret, once, and Location is the endpoint') },
    problems: ['malformed-json', 'malformed-body', 'not-found', 'precondition-failed', 'body-too-large', 'unsupported-media-type', 'validation-failed', 'unavailable'],
    problemHeaders: { 415: { 'Accept-Post': header(ctx, 'accept-post') } },
    tag: TAG,
  }),
  listWebhookEndpointDeliveries: (ctx) => ({
    description: `What was sent to the endpoint and what is waiting, oldest first. ${LOG_PAGING_RULE}`,
    pathParameters: endpointId,
    parameters: [
      { name: 'status', in: 'query', description: 'Only deliveries in this state', schema: { type: 'string', enum: ['pending', 'delivered', 'failed'] } },
      { name: 'eventType', in: 'query', description: 'Only deliveries of this event type (e.g. `characters.created`)', schema: { type: 'string', maxLength: 200 } },
      ...logPageParameters('Deliveries'),
    ],
    responses: { '200': logPageResponse(ctx, 'A page of deliveries', 'deliveries', deliverySchema(ctx)) },
    problems: ['invalid-query', 'not-found', 'unavailable'],
    tag: TAG,
  }),
  getWebhookEndpointDelivery: (ctx) => ({
    description: 'One delivery: its status, how many attempts, when the next is due, what the last one got, and links to the event and the attempts.',
    pathParameters: deliveryId,
    responses: { '200': { description: 'The delivery', content: representations(deliverySchema(ctx)) } },
    problems: ['not-found', 'unavailable'],
    tag: TAG,
  }),
  listWebhookEndpointAttempts: (ctx) => ({
    description: 'Every attempt at the delivery, oldest first: status code, latency, the start of the response, the error, and which node made it.',
    pathParameters: deliveryId,
    responses: { '200': { description: 'The attempts', content: representations(attemptListSchema(ctx, attemptSchema(ctx))) } },
    problems: ['not-found', 'unavailable'],
    tag: TAG,
  }),
  createWebhookEndpointAttempt: (ctx) => ({
    description:
      'Sends the delivery again now, whatever its status, and answers with the attempt once it is made (trigger `manual`). ' +
      'While another attempt at it is under way the answer is 409: GET the attempts to see how that one went.',
    pathParameters: deliveryId,
    responses: {
      '201': {
        description: 'The attempt, and the delivery after it',
        headers: { Location: header(ctx, 'location') },
        content: representations({ allOf: [attemptSchema(ctx), { type: 'object', required: ['delivery'], properties: { delivery: deliverySchema(ctx) } }] }),
      },
    },
    problems: ['not-found', 'webhook-delivery-busy', 'unavailable'],
    tag: TAG,
  }),
  getWebhookEndpointAttempt: (ctx) => ({
    description: 'One attempt at a delivery.',
    pathParameters: { ...deliveryId, n: { type: 'integer', minimum: 1, description: 'The attempt number, from 1' } },
    responses: { '200': { description: 'The attempt', content: representations(attemptSchema(ctx)) } },
    problems: ['not-found', 'unavailable'],
    tag: TAG,
  }),
  createWebhookEndpointReplay: (ctx) => ({
    description:
      'Sends again everything committed since a time (or, with failedOnly, only what was given up on), deriving deliveries for events from before the endpoint ' +
      'existed. Accepted at once; the dispatcher sends them in the background (to an enabled endpoint). `queued` counts existing deliveries queued again.',
    pathParameters: endpointId,
    requestBody: jsonBody(replay, 'From when, and whether only failed deliveries'),
    responses: {
      '202': {
        description: 'Queued',
        content: representations({
          type: 'object',
          required: ['queued', 'since', 'failedOnly', 'enabled', '_links'],
          properties: {
            queued: { type: 'integer', minimum: 0, description: 'Existing deliveries queued again (the derived ones come on top)' },
            since: { type: 'string', format: 'date-time' },
            failedOnly: { type: 'boolean' },
            enabled: { type: 'boolean', description: 'false: nothing is sent until the endpoint is enabled again' },
            _links: linksSchema(ctx, ['endpoint', 'deliveries'], ['endpoint', 'deliveries'], 'the endpoint and its deliveries'),
          },
        }),
      },
    },
    problems: ['malformed-json', 'malformed-body', 'not-found', 'body-too-large', 'unsupported-media-type', 'validation-failed', 'unavailable'],
    problemHeaders: { 415: { 'Accept-Post': header(ctx, 'accept-post') } },
    tag: TAG,
  }),
};
