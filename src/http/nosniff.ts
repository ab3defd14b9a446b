import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * `X-Content-Type-Options: nosniff` on every response: a browser then never second-guesses the
 * declared media type (a JSON body that happens to look like HTML or script is never run as such).
 */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/** The onRequest hook that puts NOSNIFF on a reply, before any handler, error or stream writes it. */
export function nosniff(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.headers(NOSNIFF);
  done();
}
