import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { NotFoundError } from '../core/errors.js';
import { JSON_BODY_TYPES, PATCH_TYPES } from '../http/body-types.js';
import type { CorsPolicy } from '../http/cors.js';
import { KNOWN_METHODS } from '../http/errors.js';
import { sendProblem } from '../http/problems.js';
import { methodOf } from '../http/respond.js';
import type { Route } from '../http/route.js';
import type { AppContext } from './context.js';

/**
 * Every path of the route table answers OPTIONS, and every known method it has no route for 405
 * with `Allow`. OPTIONS on a path naming something that does not exist (a deleted record, an id
 * no record can have, an unknown webhook source) answers 404 as GET would, not 204. With `cors`,
 * a preflight from an allowed origin is answered by the policy (see CorsPolicy.preflight).
 */
export function registerMethodFallbacks(app: FastifyInstance, ctx: AppContext, routes: Route<AppContext>[], cors?: CorsPolicy): void {
  const byPath = new Map<string, Route<AppContext>[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const [path, same] of byPath) registerPath(app, path, same, existence(ctx, path, same, routes), cors);
}

/**
 * OPTIONS answers with Allow, plus Accept-Patch where PATCH takes patches and Accept-Post where
 * POST takes a body of known types (webhook receivers take whatever their provider sends);
 * every other known method gets 405 + Allow.
 */
function registerPath(app: FastifyInstance, path: string, routes: Route<AppContext>[], exists: Existence | undefined, cors: CorsPolicy | undefined): void {
  const allowed = [...new Set(routes.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method])).concat('OPTIONS'))];
  const allow = allowed.join(', ');
  const post = routes.find((r) => r.method === 'POST' && !r.rawBody);
  const acceptPost = post && (post.form ? 'application/x-www-form-urlencoded' : JSON_BODY_TYPES.join(', '));
  app.options(path, async (request, reply) => {
    // Before the existence check: a browser's preflight carries no credentials, and the request it
    // clears gets its own 404 (with CORS headers, so the page can read it) if the path names nothing.
    if (cors?.preflight(request, reply, allow)) return reply;
    if (exists && (await exists(request, reply))) return reply;
    reply.header('allow', allow);
    if (allowed.includes('PATCH')) reply.header('accept-patch', (routes.find((r) => r.method === 'PATCH')?.bodyTypes ?? PATCH_TYPES).join(', '));
    if (acceptPost) reply.header('accept-post', acceptPost);
    return reply.code(204).send();
  });
  const others = [...KNOWN_METHODS].filter((m) => !allowed.includes(m));
  if (!others.length) return;
  // A catch-all (the front-end's files) names something only where a file is: elsewhere 404, not 405.
  const catchAll = path.endsWith('*') ? exists : undefined;
  app.route({
    method: others as any,
    url: path,
    onSend: headWithoutBody,
    handler: async (request, reply) => {
      if (catchAll && (await catchAll(request, reply))) return reply;
      reply.header('allow', allow);
      return sendProblem(request, reply, 'method-not-allowed', `${methodOf(request)} is not allowed on ${path.replace(':id', '{id}')}; allowed: ${allow}`);
    },
  });
}

/**
 * A HEAD answered here (405, or a catch-all's 404) gets the headers its GET would get, Content-Length
 * included, and no body: what Fastify does for the HEAD routes it derives from GET. Node's server
 * drops a HEAD body on the wire anyway; this keeps the answer the same for every transport (inject too).
 */
export const headWithoutBody: onSendHookHandler = (request, reply, payload, done) => {
  if (request.method !== 'HEAD' || payload === null || payload === undefined) return done(null, payload);
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) reply.header('content-length', String(Buffer.byteLength(payload)));
  done(null, null);
};

/** Answers the 404 an OPTIONS request gets when its path names nothing; resolves whether it did. */
type Existence = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

/**
 * How OPTIONS learns whether a path with parameters names something, without a lookup of its own:
 * a GET of the path, or else of the nearest path with a GET and the same parameters (the endpoint
 * `/webhook-endpoints/{id}` for its `/secrets`), asked as the caller (so a caller who may not read
 * it learns nothing, and it costs what a GET costs); or the row's own `exists` check.
 */
function existence(ctx: AppContext, path: string, same: Route<AppContext>[], routes: Route<AppContext>[]): Existence | undefined {
  const params = paramsOf(path);
  if (!params.length) return undefined;
  const own = same.find((r) => r.exists)?.exists?.(ctx);
  if (own) {
    return async (request, reply) => {
      try {
        await own(request);
        return false;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        sendProblem(request, reply, 'not-found', err.message);
        return true;
      }
    };
  }
  const key = params.join();
  const gets = routes.filter((r) => r.method === 'GET' && paramsOf(r.path).join() === key).map((r) => r.path);
  // The path itself, else its nearest parent (`/webhook-endpoints/:id` for `…/:id/secrets`), else its nearest child.
  const parents = gets.filter((g) => path.startsWith(`${g}/`)).sort((a, b) => b.length - a.length);
  const children = gets.filter((g) => g.startsWith(`${path}/`)).sort((a, b) => a.length - b.length);
  const probe = gets.includes(path) ? path : (parents[0] ?? children[0]);
  if (!probe) return undefined;
  return async (request, reply) => {
    const values = request.params as Record<string, string>;
    const url = probe.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));
    const { authorization, host } = request.headers;
    const res = await request.server.inject({ method: 'GET', url, remoteAddress: request.ip, headers: { accept: 'application/json', ...(host ? { host } : {}), ...(authorization ? { authorization } : {}) } });
    if (res.statusCode !== 404) return false;
    sendProblem(request, reply, 'not-found', (res.json() as { detail?: string }).detail ?? `nothing at ${request.url.split('?')[0]}`);
    return true;
  };
}

/** The parameters of a path: its `:name`s, and `*` for a catch-all. */
function paramsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)|\*/g)].map((m) => m[1] ?? '*');
}
