import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendRepresentation } from '../../http/respond.js';
import { scopeCatalog } from '../scope-catalog.js';
import type { AuthContext } from './auth-context.js';

/**
 * `GET /api-keys/scopes`: every scope this server checks, with what it grants, so the forms that
 * create keys and clients can offer them instead of a free-text guess. Worked out once: the config
 * does not change while the server runs.
 */
export function scopeCatalogHandler(ctx: AuthContext) {
  const scopes = scopeCatalog(ctx.resources.values(), ctx.config);
  return async (request: FastifyRequest, reply: FastifyReply) =>
    sendRepresentation(request, reply, 200, { _links: { self: { href: '/api-keys/scopes' } }, count: scopes.length, scopes });
}
