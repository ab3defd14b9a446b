import type { HttpContext } from '../../../http/context.js';
import type { WebhookHub } from '../hub.js';

/** The context of the webhook routes: the HTTP context plus the inbound-webhook hub. */
export interface WebhookContext extends HttpContext {
  webhooks: WebhookHub;
}
