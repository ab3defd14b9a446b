import { ADMIN_SCOPE } from '../../../auth/scopes.js';
import { documented, type Route } from '../../../http/route.js';
import type { WebhookContext } from './webhook-context.js';
import { WEBHOOK_OPERATIONS } from './webhook-operations.js';
import { createAttempt, listAttempts, listDeliveries, readAttempt, readDelivery, sourceOf } from './inbox-routes.js';
import { receiveWebhook } from './receive.js';

const admin = [ADMIN_SCOPE];

/**
 * The inbound-webhook rows of the route table. Receiving is open (each source verifies its own
 * signature or credentials); the inbox holds other people's messages, so it is admin-only.
 */
export function webhookRoutes(): Route<WebhookContext>[] {
  const events = '/webhooks/:source/events';
  return documented<Route<WebhookContext>>([
    { method: 'POST', path: '/webhooks/:source', operationId: 'receiveWebhook', summary: 'Receive a delivery from a configured webhook source (verified, stored, then acknowledged)', handler: receiveWebhook, kind: 'receive', rawBody: true, exists: (ctx) => (request) => void sourceOf(ctx, request) },
    { method: 'GET', path: events, operationId: 'listWebhookDeliveries', summary: 'The inbox of a webhook source, oldest first (status filter, keyset cursor)', handler: listDeliveries, kind: 'log', access: admin },
    { method: 'GET', path: `${events}/:id`, operationId: 'getWebhookDelivery', summary: 'One stored delivery: headers, raw body, verification, status, the response sent', handler: readDelivery, kind: 'log', access: admin },
    { method: 'GET', path: `${events}/:id/attempts`, operationId: 'listWebhookAttempts', summary: 'The attempts at running a delivery\'s actions', handler: listAttempts, kind: 'log', access: admin },
    { method: 'POST', path: `${events}/:id/attempts`, operationId: 'createWebhookAttempt', summary: 'Run a received or failed delivery\'s actions again now', handler: createAttempt, kind: 'action', access: admin },
    { method: 'GET', path: `${events}/:id/attempts/:n`, operationId: 'getWebhookAttempt', summary: 'One attempt at a delivery\'s actions', handler: readAttempt, kind: 'log', access: admin },
  ], WEBHOOK_OPERATIONS);
}
