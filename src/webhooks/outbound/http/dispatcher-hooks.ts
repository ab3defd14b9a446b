import type { FastifyInstance } from 'fastify';
import type { OutboundHub } from '../hub.js';

/**
 * Ties the outbound dispatcher to the app: it starts once the app is ready (not awaited: a backlog
 * is worked off while the server already answers) and stops before the store closes.
 */
export function registerDispatcher(app: FastifyInstance, hub: OutboundHub): void {
  hub.log = app.log;
  app.addHook('onReady', async () => {
    if (hub.key.warning) app.log.warn(hub.key.warning);
    hub.start();
  });
  app.addHook('onClose', async () => hub.stop());
}
