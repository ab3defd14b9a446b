import { documented, type Route } from '../../../http/route.js';
import { DELIVERY_OPERATIONS } from './delivery-operations.js';
import { createAttempt, listAttempts, listDeliveries, readAttempt, readDelivery } from './delivery-routes.js';
import { createEndpoint, listEndpoints } from './endpoint-collection.js';
import { deleteEndpoint, patchEndpoint, readEndpoint, replaceEndpoint } from './endpoint-item.js';
import { ENDPOINT_OPERATIONS } from './endpoint-operations.js';
import type { OutboundContext } from './outbound-context.js';
import { createReplay } from './replays.js';
import { rotateSecret } from './secret-rotation.js';
import { EVENT_TYPES_PATH, listEventTypes } from './event-types.js';
import { TEST_OPERATIONS } from './test-operations.js';
import { sendTestMessage } from './test-send.js';

/** Reading endpoints, deliveries and attempts; the admin scope `*` grants it too. */
const read = ['webhooks:read'];
/** Creating, changing, rotating, redelivering and replaying. */
const write = ['webhooks:write'];
/** Any of it, for one's own endpoints only (the handlers narrow what the caller reaches, see endpoint-ownership.ts). */
const own = ['webhooks:own'];

/**
 * The outbound-webhook rows of the route table: the endpoints subscribers are (with their secrets
 * shown only when made), what was sent to each, and the user's levers: rotate, redeliver, replay.
 */
export function webhookEndpointRoutes(): Route<OutboundContext>[] {
  const item = '/webhook-endpoints/:id';
  const delivery = `${item}/deliveries/:did`;
  return documented<Route<OutboundContext>>([
    { method: 'GET', path: '/webhook-endpoints', operationId: 'listWebhookEndpoints', summary: 'List webhook endpoints, oldest first (keyset cursor; never a secret)', handler: listEndpoints, kind: 'list', access: read, alsoAccess: own },
    { method: 'POST', path: '/webhook-endpoints', operationId: 'createWebhookEndpoint', summary: 'Subscribe a URL to events (its signing secret is in the response, once)', handler: createEndpoint, kind: 'create', access: write, alsoAccess: own, secretResponse: true },
    { method: 'GET', path: EVENT_TYPES_PATH, operationId: 'listWebhookEventTypes', summary: 'The event types an endpoint may subscribe to (from the config), and the patterns eventTypes accepts', handler: listEventTypes, kind: 'meta', access: read, alsoAccess: own },
    { method: 'GET', path: item, operationId: 'getWebhookEndpoint', summary: 'Read a webhook endpoint', handler: readEndpoint, kind: 'read', access: read, alsoAccess: own },
    { method: 'PUT', path: item, operationId: 'replaceWebhookEndpoint', summary: 'Replace a webhook endpoint\'s settings', handler: replaceEndpoint, kind: 'replace', access: write, alsoAccess: own },
    { method: 'PATCH', path: item, operationId: 'patchWebhookEndpoint', summary: 'Change part of a webhook endpoint (e.g. enable it again)', handler: patchEndpoint, kind: 'patch', access: write, alsoAccess: own },
    { method: 'DELETE', path: item, operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint and its deliveries', handler: deleteEndpoint, kind: 'delete', access: write, alsoAccess: own },
    { method: 'POST', path: `${item}/secrets`, operationId: 'rotateWebhookEndpointSecret', summary: 'Rotate the signing secret (the new one is in the response, once)', handler: rotateSecret, kind: 'create', access: write, alsoAccess: own, secretResponse: true },
    { method: 'POST', path: `${item}/test`, operationId: 'sendWebhookEndpointTest', summary: 'Send a signed webhook.test message now and answer with what came back', handler: sendTestMessage, kind: 'action', access: write, alsoAccess: own },
    { method: 'GET', path: `${item}/deliveries`, operationId: 'listWebhookEndpointDeliveries', summary: 'The deliveries to an endpoint, oldest first (status and eventType filters, keyset cursor)', handler: listDeliveries, kind: 'log', access: read, alsoAccess: own },
    { method: 'GET', path: delivery, operationId: 'getWebhookEndpointDelivery', summary: 'One delivery: status, attempts, next attempt, last outcome', handler: readDelivery, kind: 'log', access: read, alsoAccess: own },
    { method: 'GET', path: `${delivery}/attempts`, operationId: 'listWebhookEndpointAttempts', summary: 'The attempts at a delivery', handler: listAttempts, kind: 'log', access: read, alsoAccess: own },
    { method: 'POST', path: `${delivery}/attempts`, operationId: 'createWebhookEndpointAttempt', summary: 'Redeliver now: one attempt, made and answered at once', handler: createAttempt, kind: 'action', access: write, alsoAccess: own },
    { method: 'GET', path: `${delivery}/attempts/:n`, operationId: 'getWebhookEndpointAttempt', summary: 'One attempt at a delivery', handler: readAttempt, kind: 'log', access: read, alsoAccess: own },
    { method: 'POST', path: `${item}/replays`, operationId: 'createWebhookEndpointReplay', summary: 'Send everything since a time again (or only what failed)', handler: createReplay, kind: 'action', access: write, alsoAccess: own },
  ], { ...ENDPOINT_OPERATIONS, ...DELIVERY_OPERATIONS, ...TEST_OPERATIONS });
}
