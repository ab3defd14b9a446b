import type { RequestListener } from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { routeGuard } from '../auth/http/guard.js';
import type { AppContext } from './context.js';
import { idempotencyHooks } from '../http/idempotency.js';
import { mayRead } from '../resources/http/record-request.js';
import { createHttpServer } from '../http/connections.js';
import { checkPostPreconditions } from '../http/conditional.js';
import { handleError, handleNotFound } from '../http/errors.js';
import { headWithoutBody, registerMethodFallbacks } from './method-fallbacks.js';
import { jsonBodyParser } from '../http/json-body.js';
import { parseMediaType } from '../http/media-type.js';
import { sendProblem } from '../http/problems.js';
import { advertiseBodyTypes, bodyTypesFor, JSON_BODY_TYPES, PATCH_TYPES } from '../http/body-types.js';
import { isCollectionPost, type DocRoute } from '../http/route.js';
import { routeTable } from './routes.js';
import { registerEventStreams } from '../events/http/register.js';
import { registerWebhookRoutes } from '../webhooks/inbound/http/register.js';
import { registerDispatcher } from '../webhooks/outbound/http/dispatcher-hooks.js';
import { registerRetention } from './retention-hooks.js';
import { loggerFromEnv, type LoggerSettings } from './ops/logger-from-env.js';
import { opsState, SHUTTING_DOWN } from './ops/ops-state.js';
import { registerOps, unmatchedHook } from './ops/register-ops.js';
import { rawProblemBody, rawProblemHeaders, rawProblemOrigin } from '../http/raw-problem.js';
import { NOSNIFF, nosniff } from '../http/nosniff.js';
import { CorsPolicy } from '../http/cors.js';
import type { ServerOrigin } from '../http/server-origin.js';

/** Options for the Fastify instance that are not part of the config file. */
export interface AppOptions {
  /** false for none; default from the environment (LOG_LEVEL, LOG_FORMAT; pretty in a terminal). */
  logger?: boolean | LoggerSettings;
}

/** Builds the Fastify app for a context: parsers, the route table, 405/OPTIONS, and the error handlers. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const ops = opsState(ctx);
  const cors = ctx.config.server.cors && new CorsPolicy(ctx.config.server.cors);
  const app = Fastify({
    logger: withRedaction(options.logger ?? loggerFromEnv()),
    // Fastify's own request logging writes two lines per request; ops/register-ops.ts writes one (at info).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: ctx.config.server.bodyLimit,
    // Timeouts, the per-client connection cap and problem+json for parser errors and CONNECT, on every
    // server Fastify listens with (two when `localhost` resolves to two addresses).
    serverFactory: (handler) => createHttpServer(refusedWhileDraining(handler, ops, ctx.origin), { server: ctx.config.server, origin: ctx.origin }),
    // The factory's servers answer client errors themselves; Fastify's default answer is not a problem.
    clientErrorHandler: () => {},
    // Requests that arrive while draining get a problem (refusedWhileDraining), not Fastify's plain JSON.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Framework errors (a bad URL) are answered before any onRequest hook has run.
    frameworkErrors: (error, request, reply) => {
      reply.headers(NOSNIFF);
      if (cors) cors.hook(request, reply, () => undefined);
      return handleError(error, request, reply);
    },
  });
  app.decorate('restwell', ctx);
  // Outages of the shared rate-limit counter are logged with the app's lines.
  if (ctx.auth.limiter.shared) ctx.auth.limiter.shared.log = app.log;
  // Problem types, token iss/aud and the OAuth metadata follow the port actually bound, never a Host header.
  ctx.origin.attach(app.server);

  // One JSON parser for every JSON media type: strict UTF-8, bounded depth, finite numbers.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser([...JSON_BODY_TYPES, ...PATCH_TYPES], { parseAs: 'buffer' }, jsonBodyParser(ctx.config.server.maxJsonDepth));

  app.setErrorHandler(handleError);
  app.addHook('onRequest', nosniff);
  // Global, so it runs before every route's own hooks: 401s, 429s and 404s carry the CORS headers too (a page can read why it failed).
  if (cors) {
    app.addHook('onRequest', cors.hook);
    app.addHook('onSend', cors.onSend);
  }
  registerOps(app, ctx);
  // In a scope of its own, so the hook that counts and logs unmatched requests runs for them alone.
  app.register(async (scope) => {
    const unmatched = unmatchedHook(scope, ctx);
    if (unmatched) scope.addHook('onResponse', unmatched);
    // Only unmatched requests reach this scope's hooks: a HEAD of nothing is GET's 404 without the body.
    scope.addHook('onSend', headWithoutBody);
    scope.setNotFoundHandler(handleNotFound);
  });

  await ctx.auth.start();
  const routes = routeTable(ctx.resources.values(), ctx.config);
  const idempotency = idempotencyHooks(ctx, mayRead);
  const formRoutes: Array<Parameters<FastifyInstance['route']>[0]> = [];
  const rawRoutes: Array<Parameters<FastifyInstance['route']>[0]> = [];
  for (const route of routes) {
    const idempotent = (route.kind === 'create' || route.kind === 'patch') && !route.secretResponse;
    const options = {
      method: route.method,
      url: route.path,
      handler: route.handler(ctx),
      onRequest: [routeGuard(ctx, route), postPreconditions(route)].filter((h) => h !== undefined),
      preValidation: bodyTypeCheck(route),
      ...(idempotent ? { preHandler: idempotency.preHandler, onSend: idempotency.onSend } : {}),
    };
    if (route.form) formRoutes.push(options);
    else if (route.rawBody) rawRoutes.push(options);
    else app.route(options);
  }
  // Form bodies (OAuth) are parsed only on the routes that take them, by their handlers.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));
    for (const options of formRoutes) scope.route(options);
  });
  // Webhook bodies stay raw bytes (signatures cover them exactly); JSON parsing elsewhere is unchanged.
  registerWebhookRoutes(app, ctx, rawRoutes);
  registerEventStreams(app, ctx);
  registerDispatcher(app, ctx.outbound, ctx);
  registerRetention(app, ctx.retention);
  registerMethodFallbacks(app, ctx, routes, cors);
  return app;
}

/**
 * Once shutdown begins, a request arriving on a connection kept alive answers 503 `shutting-down`
 * and closes it (new connections are no longer accepted at all), while those already under way finish.
 */
function refusedWhileDraining(handler: RequestListener, ops: { draining: boolean }, origin: ServerOrigin): RequestListener {
  return (request, response) => {
    if (!ops.draining) return handler(request, response);
    const body = rawProblemBody('shutting-down', SHUTTING_DOWN.detail, rawProblemOrigin(origin.url, request.url));
    response.writeHead(503, { ...rawProblemHeaders(body), 'retry-after': SHUTTING_DOWN.retryAfter }).end(body);
  };
}

/** Credentials never reach a log line, whatever a future serializer decides to include. */
function withRedaction(logger: boolean | LoggerSettings) {
  if (logger === false) return false;
  const base = logger === true ? {} : logger;
  const paths = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'request.headers.authorization', 'req.body.client_secret', 'body.client_secret', 'res.headers["set-cookie"]'];
  return { ...base, redact: { paths, censor: '[redacted]' } };
}

/**
 * POST and PUT take JSON; PATCH takes only the patch types. Anything else is 415 with the
 * header that lists what the method takes (Accept-Post, Accept, Accept-Patch).
 */
function bodyTypeCheck(route: DocRoute) {
  if (route.kind !== 'patch' && route.kind !== 'create' && route.kind !== 'replace') return undefined;
  const accepted = route.bodyTypes ?? bodyTypesFor(route.method);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { type } = parseMediaType(request.headers['content-type']);
    if (request.body === undefined && !type) return;
    if (accepted.includes(type)) return;
    advertiseBodyTypes(reply, route.method, accepted);
    return sendProblem(request, reply, 'unsupported-media-type', `${route.method} ${route.path} takes ${accepted.join(' or ')}, not ${type || 'a body without Content-Type'}`);
  };
}

/**
 * A POST that creates in a collection evaluates If-Match and If-None-Match against the collection
 * (RFC 9110 §13.1): after access (401/403 win, §13.2.1) and before the body is read. A collection
 * under a record (`/webhook-endpoints/{id}/secrets`) exists only with its parent, which the handler
 * looks up, so only collections without a path parameter (which always exist) are checked here.
 */
function postPreconditions(route: DocRoute) {
  if (!isCollectionPost(route)) return undefined;
  return async (request: FastifyRequest) => checkPostPreconditions(request.headers, route.path);
}
