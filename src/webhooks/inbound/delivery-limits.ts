import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitPolicy } from '../../auth/auth-config.js';
import { rateLimitHeaders, type RateLimitResult } from '../../auth/rate-limiter.js';
import { sendProblem } from '../../http/problems.js';

/**
 * Deliveries that fail verification, counted per client address over all sources. Forged traffic
 * is bounded by its own address and never spends a source's quota (which counts verified
 * deliveries only), so it cannot lock the real provider out. Past the bound an address's
 * failures get 429 with Retry-After instead of 401: no more hints about which check failed, and
 * no more log lines. A genuine delivery is still verified and accepted from any address, even
 * one past its bound (behind a proxy, or a provider's shared pool, the forger may share it).
 */
export const UNVERIFIED_PER_ADDRESS: RateLimitPolicy = { name: 'webhooks.unverified', limit: 20, windowSeconds: 60 };

/** Sends the 429 for an exhausted webhook limit, with the RateLimit headers and Retry-After. */
export function sendRateLimited(request: FastifyRequest, reply: FastifyReply, limit: RateLimitResult, detail: string): FastifyReply {
  reply.headers(rateLimitHeaders(limit)).header('retry-after', String(limit.resetSeconds));
  return sendProblem(request, reply, 'rate-limited', `${detail}; retry in ${limit.resetSeconds} s`);
}
