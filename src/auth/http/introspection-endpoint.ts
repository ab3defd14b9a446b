import type { AuthContext } from './auth-context.js';
import { ADMIN_SCOPE } from '../scopes.js';
import { oauthEndpoint } from './oauth-handler.js';
import { OAuthError, sendOAuthJson } from './oauth-response.js';

/**
 * `POST /oauth/introspect` (RFC 7662). A client learns about tokens issued to itself; a client
 * allowed the admin scope `*` (a resource server, an operator) about any token, API keys included.
 * Anything else, like anything invalid, is just `{"active": false}`: no hint what exists.
 */
export function introspectionEndpoint(ctx: AuthContext) {
  return oauthEndpoint(ctx, ['token', 'token_type_hint'], async ({ request, reply, form, client }) => {
    const token = form.get('token');
    if (!token) throw new OAuthError('invalid_request', 'the token parameter is required');
    const admin = client.scopes.includes(ADMIN_SCOPE);
    const at = ctx.auth.audience();
    const claims = await ctx.auth.tokens.claims(token, at);
    if (claims && (admin || claims.client_id === client.clientId) && !(await ctx.auth.tokens.isRevoked(String(claims.jti)))) {
      const { iss, aud, sub, exp, iat, jti, scope, client_id } = claims;
      return sendOAuthJson(reply, 200, { active: true, token_type: 'Bearer', scope, client_id, sub, iss, aud, exp, iat, jti });
    }
    if (admin) {
      const key = await ctx.auth.apiKeys.verify(token);
      if (key) {
        const exp = key.expiresAt ? Math.floor(Date.parse(key.expiresAt) / 1000) : undefined;
        return sendOAuthJson(reply, 200, { active: true, token_type: 'Bearer', scope: key.scopes.join(' '), sub: key.subject, iat: Math.floor(Date.parse(key.createdAt) / 1000), exp });
      }
    }
    return sendOAuthJson(reply, 200, { active: false });
  });
}
