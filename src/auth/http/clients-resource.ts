import type { OAuthClientInfo } from '../oauth-clients.js';
import { credentialHandlers } from './credential-collection.js';

/**
 * `/oauth/clients`: registered OAuth clients; the secret is shown once, on create. Deleting one
 * means it gets no new tokens and its live tokens stop verifying.
 */
export const clientHandlers = credentialHandlers<OAuthClientInfo>({
  path: '/oauth/clients',
  noun: 'OAuth client',
  rel: 'clients',
  allowExpiry: false,
  id: (c) => c.clientId,
  hal: (c) => ({
    client_id: c.clientId,
    name: c.name,
    scopes: c.scopes,
    createdAt: c.createdAt,
    _links: { self: { href: `/oauth/clients/${c.clientId}` }, collection: { href: '/oauth/clients' }, token: { href: '/oauth/token' } },
  }),
  create: async (ctx, input) => {
    const { clientSecret, info } = await ctx.auth.clients.create(input);
    return { info, secret: { client_secret: clientSecret } };
  },
  list: (ctx) => ctx.auth.clients.list(),
  get: (ctx, id) => ctx.auth.clients.get(id),
  remove: (ctx, id) => ctx.auth.clients.delete(id),
});
