import type { FastifyReply } from 'fastify';

/** Adds a request header name to `Vary`, keeping the names already there. */
export function addVary(reply: FastifyReply, name: string): FastifyReply {
  const current = reply.getHeader('vary');
  // Every response adds one or two names: the first is set as is, without splitting anything.
  if (current === undefined) return reply.header('vary', name);
  const names = String(current).split(',').map((n) => n.trim());
  if (names.some((n) => n === '*' || n.toLowerCase() === name.toLowerCase())) return reply;
  return reply.header('vary', [...names, name].join(', '));
}
