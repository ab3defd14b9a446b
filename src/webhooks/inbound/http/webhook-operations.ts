import type { WebhookSourceConfig } from '../../../config/types.js';
import { parseMediaType } from '../../../http/media-type.js';
import type { Json } from '../../../http/openapi/components.js';
import { header } from '../../../http/openapi/headers.js';
import { LOG_PAGING_RULE, logPageParameters, logPageResponse } from '../../../http/openapi/log-page-doc.js';
import type { OperationDoc } from '../../../http/openapi/operation-doc.js';
import { representations } from '../../../http/openapi/representations.js';
import { attemptListSchema, linksSchema, type SchemaContext } from '../../../http/openapi/schemas.js';
import { PROBLEMS, type ProblemCode } from '../../../http/problems.js';
import { findProvider, type ProviderDescriptor } from '../providers/index.js';
import { sourceSigning } from '../sources.js';

const sourcesOf = (ctx: SchemaContext) => Object.entries<WebhookSourceConfig>(ctx.config.webhooks?.sources ?? {});
/** The providers of the configured sources (an unknown one is refused at start-up, so it has nothing to document). */
const providers = (ctx: SchemaContext) => new Set(sourcesOf(ctx).flatMap(([, s]) => findProvider(s.provider) ?? []));

/** `{source}`: one of the configured sources. */
function sourceParameter(ctx: SchemaContext): Record<string, Json> {
  const names = sourcesOf(ctx).map(([name]) => name);
  return { source: { type: 'string', ...(names.length ? { enum: names } : {}), description: 'The name of a webhook source of the config' } };
}

function sourceList(ctx: SchemaContext): string {
  return sourcesOf(ctx).map(([name, s]) => `\`${name}\` (${s.provider})`).join(', ') || 'none configured';
}

/** The source checks HTTP Basic credentials, so its 401 carries a Basic challenge. */
function verifiesWithBasic(source: WebhookSourceConfig): boolean {
  // A source the server would refuse at start-up has no scheme, and nothing to document.
  return sourceSigning(source).scheme === 'basic';
}

/** The problems refusing a genuine delivery that can never be processed, for these providers, lowest status first. */
function rejectionsOf(used: Set<ProviderDescriptor>): ProblemCode[] {
  const codes = new Set([...used].map((p) => p.rejection ?? 'webhook-payload-invalid'));
  return [...codes].sort((a, b) => PROBLEMS[a].status - PROBLEMS[b].status);
}

/** `POST /webhooks/{source}`: what each configured provider posts and what it is answered. */
function receive(ctx: SchemaContext): OperationDoc {
  const used = providers(ctx);
  const types = [...new Set([...used].flatMap((p) => p.contentTypes))];
  const basic = sourcesOf(ctx).some(([, s]) => verifiesWithBasic(s));
  const content: Json = {};
  if ([...used].some((p) => !p.reply)) {
    content['application/json'] = {
      schema: { type: 'object', required: ['received', 'id'], properties: { received: { type: 'boolean', const: true }, id: { type: 'string', description: 'The delivery in the inbox (`whd_…`)' } } },
    };
  }
  for (const { reply } of used) if (reply) content[parseMediaType(reply.contentType).type] = { schema: { type: 'string', description: reply.description } };
  const rejections = rejectionsOf(used);
  return {
    description:
      `Receives a delivery from a configured source: ${sourceList(ctx)}. The raw body is verified first (signature or credentials, by provider); ` +
      'a genuine delivery is stored in the inbox and committed before it is answered, once per provider event id: a redelivery gets the first answer again. ' +
      'Twilio sources are answered with TwiML, others with the delivery id.',
    pathParameters: sourceParameter(ctx),
    requestBody: {
      required: true,
      description: 'The provider\'s payload, as it sends it (the signature covers these exact bytes)',
      content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'object', description: `A ${t} payload of a configured provider` } }])),
    },
    responses: { '200': { description: 'Verified, stored, acknowledged', ...(Object.keys(content).length ? { content } : {}) } },
    // 429: a source's own quota, and failed verifications per client address.
    problems: ['not-found', 'webhook-unverified', ...rejections, 'body-too-large', 'unsupported-media-type', 'rate-limited', 'unavailable'],
    problemHeaders: basic ? { 401: { 'WWW-Authenticate': header(ctx, 'www-authenticate', false) } } : {},
    tag: 'webhooks',
  };
}

function deliverySchema(ctx: SchemaContext, full: boolean): { $ref: string } {
  return ctx.components.schema(full ? 'delivery' : 'delivery-summary', full ? 'WebhookDelivery' : 'WebhookDeliverySummary', () => {
    const summary: Record<string, Json> = {
      id: { type: 'string' },
      source: { type: 'string' },
      eventId: { type: 'string', description: 'The provider\'s event id (or a hash of the body); unique per source' },
      receivedAt: { type: 'string', format: 'date-time' },
      status: { type: 'string', enum: ['received', 'processed', 'failed'] },
      attempts: { type: 'integer', minimum: 0 },
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      lastError: { type: ['string', 'null'] },
      verification: { type: 'object', description: 'How it was verified: scheme, and the signed time where the provider signs one' },
      _links: linksSchema(ctx, ['self', 'collection', 'attempts'], ['self', 'collection', 'attempts'], 'self, the inbox and the attempts'),
    };
    const extra: Record<string, Json> = {
      contentType: { type: 'string' },
      headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Request headers, lower-cased; credentials redacted' },
      body: { type: 'string', description: 'The raw body, as text or base64 (bodyEncoding)' },
      bodyEncoding: { type: 'string', enum: ['utf8', 'base64'] },
      response: {
        type: 'object',
        required: ['status', 'contentType', 'body'],
        description: 'The answer sent (and sent again to a redelivery)',
        properties: { status: { type: 'integer' }, contentType: { type: 'string' }, body: { type: 'string' } },
      },
      attemptLog: { type: 'array', items: attemptFields() },
    };
    const properties = full ? { ...summary, ...extra } : summary;
    return {
      type: 'object',
      description: full ? 'A stored delivery: its request, verification, the answer sent and the attempts at its actions.' : 'A stored delivery, without its headers and body.',
      required: Object.keys(properties),
      properties,
    };
  });
}

function attemptFields(): Json {
  return {
    type: 'object',
    required: ['number', 'at', 'outcome', 'error'],
    properties: {
      number: { type: 'integer', minimum: 1 },
      at: { type: 'string', format: 'date-time' },
      outcome: { type: 'string', enum: ['processed', 'failed', 'retry'] },
      error: { type: ['string', 'null'] },
      result: { type: 'object', description: 'What the actions produced, e.g. `{"records": ["/messages/7"], "events": []}`' },
    },
  };
}

function attemptSchema(ctx: SchemaContext): { $ref: string } {
  return ctx.components.schema('delivery-attempt', 'WebhookAttempt', () => ({
    description: 'One try at running a delivery\'s actions.',
    allOf: [attemptFields(), { type: 'object', required: ['_links'], properties: { _links: linksSchema(ctx, ['self', 'delivery'], ['self', 'delivery'], 'self and the delivery') } }],
  }));
}

const deliveryId = { id: { type: 'string', minLength: 1, description: 'The id of a delivery (`whd_…`)' } };

/** The inbound webhook endpoint and the inbox, by operationId. */
export const WEBHOOK_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  receiveWebhook: receive,
  listWebhookDeliveries: (ctx) => ({
    description: `The inbox of a source, oldest first, without headers and bodies. ${LOG_PAGING_RULE}`,
    pathParameters: sourceParameter(ctx),
    parameters: [
      { name: 'status', in: 'query', description: 'Only deliveries in this state', schema: { type: 'string', enum: ['received', 'processed', 'failed'] } },
      ...logPageParameters('Deliveries'),
    ],
    responses: {
      '200': logPageResponse(ctx, 'A page of deliveries', 'deliveries', deliverySchema(ctx, false)),
    },
    problems: ['invalid-query', 'not-found', 'unavailable'],
    tag: 'webhooks',
  }),
  getWebhookDelivery: (ctx) => ({
    description: 'One stored delivery: its headers (credentials redacted), raw body, verification, status, the answer sent and its attempts.',
    pathParameters: { ...sourceParameter(ctx), ...deliveryId },
    responses: { '200': { description: 'The delivery', content: representations(deliverySchema(ctx, true)) } },
    problems: ['not-found', 'unavailable'],
    tag: 'webhooks',
  }),
  listWebhookAttempts: (ctx) => ({
    description: 'The attempts at running the delivery\'s actions (the first and the latest ones).',
    pathParameters: { ...sourceParameter(ctx), ...deliveryId },
    responses: { '200': { description: 'The attempts', content: representations(attemptListSchema(ctx, attemptSchema(ctx))) } },
    problems: ['not-found', 'unavailable'],
    tag: 'webhooks',
  }),
  createWebhookAttempt: (ctx) => ({
    description: 'Runs the actions of a received or failed delivery again, now, and answers with the attempt. A processed delivery is 409: another attempt would repeat its effects.',
    pathParameters: { ...sourceParameter(ctx), ...deliveryId },
    responses: {
      '201': {
        description: 'The attempt, and the delivery after it',
        headers: { Location: header(ctx, 'location') },
        content: representations({ allOf: [attemptSchema(ctx), { type: 'object', required: ['delivery'], properties: { delivery: deliverySchema(ctx, false) } }] }),
      },
    },
    problems: ['not-found', 'webhook-already-processed', 'unavailable'],
    tag: 'webhooks',
  }),
  getWebhookAttempt: (ctx) => ({
    description: 'One attempt at a delivery\'s actions.',
    pathParameters: { ...sourceParameter(ctx), ...deliveryId, n: { type: 'integer', minimum: 1, description: 'The attempt number, from 1' } },
    responses: { '200': { description: 'The attempt', content: representations(attemptSchema(ctx)) } },
    problems: ['not-found', 'unavailable'],
    tag: 'webhooks',
  }),
};
