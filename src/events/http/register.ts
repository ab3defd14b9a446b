import type { FastifyInstance } from 'fastify';
import type { HttpContext } from '../../http/context.js';
import { eventStreams } from '../stream/event-streams.js';

/**
 * Ends every event stream when the app closes. It runs before Fastify closes the server, which
 * waits for every connection: a stream, never idle, would otherwise hold `app.close()` forever.
 */
export function registerEventStreams(app: FastifyInstance, ctx: HttpContext): void {
  app.addHook('preClose', async () => eventStreams(ctx, app.log).close());
}
