import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../core/errors.js';
import type { AuthContext } from './auth-context.js';
import { sendRepresentation } from '../../http/respond.js';
import type { ApiKeyInfo } from '../api-keys.js';
import { parseCredentialInput } from './credential-input.js';

const hal = (k: ApiKeyInfo) => ({ ...k, _links: { self: { href: `/api-keys/${k.id}` }, collection: { href: '/api-keys' } } });

/** `POST /api-keys`: creates a key; the 201 body carries the key, the only time it is shown. */
export function createApiKey(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const input = parseCredentialInput(request.body, true);
    const { key, info } = await ctx.auth.apiKeys.create(input);
    reply.header('cache-control', 'no-store');
    return sendRepresentation(request, reply, 201, { ...hal(info), key }, { location: `/api-keys/${info.id}` });
  };
}

/** `GET /api-keys`: every live key, without secrets. */
export function listApiKeys(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const keys = await ctx.auth.apiKeys.list();
    return sendRepresentation(request, reply, 200, { _links: { self: { href: '/api-keys' } }, count: keys.length, _embedded: { 'api-keys': keys.map(hal) } });
  };
}

/** `GET /api-keys/{id}`. */
export function readApiKey(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const key = await ctx.auth.apiKeys.get(id);
    if (!key) throw new NotFoundError(`no API key has id ${id}`);
    return sendRepresentation(request, reply, 200, hal(key));
  };
}

/** `DELETE /api-keys/{id}`: revokes the key at once on this node (other nodes within the cache TTL). */
export function revokeApiKey(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    if (!(await ctx.auth.apiKeys.revoke(id))) throw new NotFoundError(`no API key has id ${id}`);
    ctx.auth.cache.clear();
    return reply.code(204).send();
  };
}
