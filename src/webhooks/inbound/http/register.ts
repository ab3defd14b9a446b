import type { FastifyInstance } from 'fastify';
import type { WebhookContext } from './webhook-context.js';
import { sendProblem } from '../../../http/problems.js';

type RouteOptions = Parameters<FastifyInstance['route']>[0];

/**
 * Registers the webhook receiving routes in their own encapsulated scope, where every body is
 * kept as raw bytes up to the largest source limit (each source then checks its own), and ties
 * the inbox worker to the app: it starts when the app is ready and stops before it closes.
 */
export function registerWebhookRoutes(app: FastifyInstance, ctx: WebhookContext, routes: RouteOptions[]): void {
  const hub = ctx.webhooks;
  hub.log = app.log;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    const keepRaw = (_request: unknown, body: Buffer | string, done: (err: Error | null, body?: unknown) => void) => done(null, body);
    const raw = { parseAs: 'buffer' as const, bodyLimit: hub.maxBodyLimit };
    // The same parser under the types the configured providers send, then for any other: Fastify
    // remembers which parser a Content-Type gets only when a named type matched it, and parses the
    // header again for every request that falls through to the catch-all.
    const named = [...new Set([...hub.sources.values()].flatMap((s) => s.provider.contentTypes))];
    if (named.length) scope.addContentTypeParser(named, raw, keepRaw);
    scope.addContentTypeParser('*', raw, keepRaw);
    // Refuse an announced oversize body before reading it. A callback hook, not an async one: every
    // delivery passes here, and an async hook costs a promise and a microtask turn per request.
    scope.addHook('onRequest', (request, reply, done) => {
      const source = hub.sources.get((request.params as { source?: string }).source ?? '');
      const length = Number(request.headers['content-length']);
      if (source && length > source.bodyLimit) {
        reply.header('connection', 'close');
        sendProblem(request, reply, 'body-too-large', `source ${source.name} accepts bodies up to ${source.bodyLimit} bytes`);
        return;
      }
      done();
    });
    for (const options of routes) scope.route(options);
  });
  app.addHook('onReady', async () => {
    for (const warning of hub.warnings()) app.log.warn(warning);
    // Not awaited: a backlog left by a crash is worked off while the server already answers.
    hub.worker.start();
  });
  app.addHook('onClose', async () => hub.worker.stop());
}
