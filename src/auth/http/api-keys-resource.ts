import type { ApiKeyInfo } from '../api-keys.js';
import { credentialHandlers } from './credential-collection.js';

/** `/api-keys`: bearer tokens an admin creates for scripts and services; the key is shown once, on create. */
export const apiKeyHandlers = credentialHandlers<ApiKeyInfo>({
  path: '/api-keys',
  noun: 'API key',
  rel: 'api-keys',
  allowExpiry: true,
  id: (k) => k.id,
  hal: (k) => ({ ...k, _links: { self: { href: `/api-keys/${k.id}` }, collection: { href: '/api-keys' } } }),
  create: async (ctx, input) => {
    const { key, info } = await ctx.auth.apiKeys.create(input);
    return { info, secret: { key } };
  },
  list: (ctx) => ctx.auth.apiKeys.list(),
  get: (ctx, id) => ctx.auth.apiKeys.get(id),
  remove: (ctx, id) => ctx.auth.apiKeys.revoke(id),
});
