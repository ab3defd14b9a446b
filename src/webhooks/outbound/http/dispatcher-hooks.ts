import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../../auth/http/auth-context.js';
import type { OutboundHub } from '../hub.js';
import { ownerAudience } from '../owner-rights.js';
import { OwnerWatch } from '../owner-watch.js';

/**
 * Ties the outbound dispatcher to the app: it starts once the app is ready (not awaited: a backlog
 * is worked off while the server already answers) and stops before the store closes. With the
 * app's context, owned endpoints receive what their owners may read of its resources, and are
 * disabled once their owner's credential is revoked (checked as often as open event streams' are).
 */
export function registerDispatcher(app: FastifyInstance, hub: OutboundHub, ctx?: AuthContext): void {
  hub.log = app.log;
  if (ctx) {
    hub.audience = ownerAudience(() => ctx.resources.values());
    hub.owners = new OwnerWatch(ctx.store, ctx.auth.revocations, ctx.config.events.stream.credentialCheckMs, () => hub.log);
  }
  app.addHook('onReady', async () => {
    if (hub.key.warning) app.log.warn(hub.key.warning);
    hub.start();
  });
  app.addHook('onClose', async () => hub.stop());
}
