import type { AuthContext } from './auth-context.js';
import { ADMIN_SCOPE } from '../scopes.js';
import { oauthEndpoint } from './oauth-handler.js';
import { OAuthError, sendOAuthJson } from './oauth-response.js';

/**
 * `POST /oauth/revoke` (RFC 7009). A client revokes its own access tokens; a client allowed `*`
 * may revoke any, and API keys too. An unknown or already invalid token is still 200 (§2.2).
 */
export function revocationEndpoint(ctx: AuthContext) {
  return oauthEndpoint(ctx, ['token', 'token_type_hint'], async ({ request, reply, form, client }) => {
    const token = form.get('token');
    if (!token) throw new OAuthError('invalid_request', 'the token parameter is required');
    const admin = client.scopes.includes(ADMIN_SCOPE);
    const claims = await ctx.auth.tokens.claims(token, ctx.auth.audience());
    if (claims) {
      if (!admin && claims.client_id !== client.clientId) throw new OAuthError('unauthorized_client', 'this token was issued to another client');
      await ctx.auth.tokens.revoke(claims);
    } else if (admin) {
      const key = await ctx.auth.apiKeys.verify(token);
      if (key) await ctx.auth.apiKeys.revoke(key.id);
    }
    // Forget verified tokens on this node at once (other nodes within the cache TTL), and end the
    // streams the token holds open (here at once, elsewhere at the next credential check).
    ctx.auth.revocations.revoked();
    return sendOAuthJson(reply, 200, {});
  });
}
