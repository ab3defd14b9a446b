import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AuthContext } from './auth-context.js';
import { sendProblem } from '../../http/problems.js';
import { addVary } from '../../http/vary.js';
import type { DocRoute } from '../../http/route.js';
import type { AccessRule } from '../../config/types.js';
import { accessCheck, rulesFor, type ResourceOperation } from '../access.js';
import type { RateLimitPolicy } from '../auth-config.js';
import { BearerError, IssuerUnavailableError, type Principal } from '../principal.js';
import { rateLimitHeaders } from '../rate-limiter.js';
import { RateLimitUnavailableError } from '../shared-counts.js';
import { sendBearerError, sendInsufficientScope } from './challenge.js';

/** The access rules a route enforces; undefined for open routes with no rule at all. */
export function routeRules(route: DocRoute): AccessRule[] | 'client' | undefined {
  if (route.access === 'client') return 'client';
  if (route.access) return [route.access];
  if (route.resource && route.kind !== 'meta') return rulesFor(route.resource, route.kind as ResourceOperation);
  return undefined;
}

/**
 * The `onRequest` hook of one route: authenticates the bearer token, counts the request against
 * the caller's rate limit, and applies the access rules, all before the body is even read.
 * Routes with no rules (the root, docs, JWKS) get no hook and cost nothing.
 */
export function routeGuard(ctx: AuthContext, route: DocRoute) {
  const rules = routeRules(route);
  if (!rules) return undefined;
  const limits = ctx.auth.settings.rateLimit;
  const policy: RateLimitPolicy | undefined = limits && ((route.resource && limits.resources.get(route.resource.name)) || limits.default);
  // A public route without a rate limit needs nothing from an anonymous request: skip the work.
  const openToAnonymous = !policy && rules !== 'client' && rules.every((r) => r === 'public');
  // Who asks decides the answer (401/403, or only their own records under `owner`), so caches must
  // key on Authorization (RFC 9110 §12.5.5). Public routes answer everyone alike and do not vary.
  const byCaller = rules !== 'client' && rules.some((r) => r !== 'public');
  const decide = rules === 'client' ? undefined : accessCheck(rules);
  const decideAlso = route.alsoAccess ? accessCheck([route.alsoAccess]) : undefined;
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (byCaller) addVary(reply, 'Authorization');
    let principal: Principal | undefined;
    let failure: BearerError | undefined;
    if (rules !== 'client') {
      try {
        principal = await ctx.auth.authenticate(request.headers.authorization, ctx.auth.audience());
      } catch (err) {
        if (err instanceof IssuerUnavailableError) {
          reply.header('retry-after', '30');
          return sendProblem(request, reply, 'unavailable', err.message);
        }
        if (!(err instanceof BearerError)) throw err;
        failure = err;
      }
    }
    if (policy) {
      // Anonymous and failed attempts count against the client address, so guessing costs quota too.
      let result;
      try {
        // Counting in memory answers at once; a count the cluster shares is a round trip.
        const counted = ctx.auth.limiter.hit(policy, principal?.rateKey ?? `ip:${request.ip}`);
        result = counted instanceof Promise ? await counted : counted;
      } catch (err) {
        if (!(err instanceof RateLimitUnavailableError)) throw err;
        reply.header('retry-after', '5');
        return sendProblem(request, reply, 'unavailable', err.message);
      }
      reply.headers(rateLimitHeaders(result));
      if (!result.allowed) {
        reply.header('retry-after', String(result.resetSeconds));
        return sendProblem(request, reply, 'rate-limited', `more than ${policy.limit} requests in ${policy.windowSeconds} s; retry in ${result.resetSeconds} s`);
      }
    }
    if (failure) return sendBearerError(request, reply, failure);
    if (!decide) return;
    let decision = decide(principal);
    if (!decision.allow && decision.reason === 'insufficient-scope' && decideAlso?.(principal).allow) decision = decideAlso(principal);
    if (!decision.allow) {
      return decision.reason === 'unauthenticated' ? sendBearerError(request, reply) : sendInsufficientScope(request, reply, decision.scopes);
    }
    request.principal = principal;
    request.subject = principal?.subject;
    request.visibleOwner = decision.owner;
  };
  if (!openToAnonymous) return guard;
  // An anonymous request to an open route has nothing to wait for: answering it through the callback,
  // not a promise, saves the promise and the microtask Fastify would take to resume after it.
  // (Not `async`: Fastify accepts a plain function that either calls `done` or returns a promise.)
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (request.headers.authorization !== undefined) return guard(request, reply);
    done();
    return undefined;
  };
}
