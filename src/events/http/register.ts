import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../auth/http/auth-context.js';
import { eventStreams } from '../stream/event-streams.js';

/**
 * Ends every event stream when the app closes. It runs before Fastify closes the server, which
 * waits for every connection: a stream, never idle, would otherwise hold `app.close()` forever.
 */
export function registerEventStreams(app: FastifyInstance, ctx: AuthContext): void {
  app.addHook('preClose', async () => eventStreams(ctx, app.log).close());
}
