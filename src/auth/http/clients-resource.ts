import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../core/errors.js';
import type { AuthContext } from './auth-context.js';
import { sendRepresentation } from '../../http/respond.js';
import type { OAuthClientInfo } from '../oauth-clients.js';
import { parseCredentialInput } from './credential-input.js';

const hal = (c: OAuthClientInfo) => ({
  client_id: c.clientId,
  name: c.name,
  scopes: c.scopes,
  createdAt: c.createdAt,
  _links: { self: { href: `/oauth/clients/${c.clientId}` }, collection: { href: '/oauth/clients' }, token: { href: '/oauth/token' } },
});

/** `POST /oauth/clients`: registers a client; the 201 body carries its secret, shown only then. */
export function createClient(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const input = parseCredentialInput(request.body, false);
    const { clientSecret, info } = await ctx.auth.clients.create(input);
    reply.header('cache-control', 'no-store');
    return sendRepresentation(request, reply, 201, { ...hal(info), client_secret: clientSecret }, { location: `/oauth/clients/${info.clientId}` });
  };
}

/** `GET /oauth/clients`: every client, without secrets. */
export function listClients(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const clients = await ctx.auth.clients.list();
    return sendRepresentation(request, reply, 200, { _links: { self: { href: '/oauth/clients' } }, count: clients.length, _embedded: { clients: clients.map(hal) } });
  };
}

/** `GET /oauth/clients/{id}`. */
export function readClient(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const client = await ctx.auth.clients.get(id);
    if (!client) throw new NotFoundError(`no OAuth client has id ${id}`);
    return sendRepresentation(request, reply, 200, hal(client));
  };
}

/** `DELETE /oauth/clients/{id}`: the client can get no new tokens, and its live tokens stop verifying. */
export function deleteClient(ctx: AuthContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    if (!(await ctx.auth.clients.delete(id))) throw new NotFoundError(`no OAuth client has id ${id}`);
    ctx.auth.cache.clear();
    return reply.code(204).send();
  };
}
