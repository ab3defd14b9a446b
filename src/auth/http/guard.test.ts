import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DocRoute } from '../../http/route.js';
import type { AuthContext } from './auth-context.js';
import { routeGuard } from './guard.js';

type Hook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => unknown;

/** A context whose authentication only counts its calls and finds every token valid. */
function contextCounting(rateLimit: unknown) {
  const calls = { authenticate: 0, hit: 0 };
  const ctx = {
    auth: {
      settings: { rateLimit },
      audience: () => 'http://localhost',
      authenticate: async () => {
        calls.authenticate++;
        return { subject: 'someone', scopes: [], rateKey: 'sub:someone' };
      },
      limiter: {
        hit: (policy: unknown) => {
          calls.hit++;
          return { allowed: true, policy, remaining: 9, resetSeconds: 60 };
        },
      },
    },
  } as unknown as AuthContext;
  return { ctx, calls };
}

const publicRead = { method: 'GET', path: '/things/:id', access: 'public' } as unknown as DocRoute;
const reply = { header() { return this; }, headers() { return this; }, getHeader: () => undefined } as unknown as FastifyReply;

test('an anonymous request to an open route passes the guard at once: done is called before the hook returns, no promise', () => {
  const { ctx, calls } = contextCounting(undefined);
  const hook = routeGuard(ctx, publicRead) as unknown as Hook;
  let doneCalls = 0;
  const returned = hook({ headers: {} } as FastifyRequest, reply, () => doneCalls++);
  assert.equal(returned, undefined);
  assert.equal(doneCalls, 1);
  assert.equal(calls.authenticate, 0);
});

test('a request with credentials to an open route is still authenticated (a bad token is refused there too)', async () => {
  const { ctx, calls } = contextCounting(undefined);
  const hook = routeGuard(ctx, publicRead) as unknown as Hook;
  let doneCalls = 0;
  const request = { headers: { authorization: 'Bearer x' } } as unknown as FastifyRequest;
  const returned = hook(request, reply, () => doneCalls++);
  assert.ok(returned instanceof Promise, 'the full guard runs, and Fastify waits for it');
  await returned;
  assert.equal(calls.authenticate, 1);
  assert.equal(doneCalls, 0, 'Fastify resumes after the promise, not the callback');
  assert.equal(request.principal?.subject, 'someone');
});

test('an open route with a rate limit counts anonymous requests too: the guard is the full one', async () => {
  const policy = { name: 'default', limit: 10, windowSeconds: 60 };
  const { ctx, calls } = contextCounting({ default: policy, resources: new Map() });
  const hook = routeGuard(ctx, publicRead) as unknown as Hook;
  const request = { headers: {}, ip: '127.0.0.1' } as unknown as FastifyRequest;
  const returned = hook(request, reply, () => assert.fail('not the callback path'));
  assert.ok(returned instanceof Promise);
  await returned;
  assert.equal(calls.hit, 1);
});
