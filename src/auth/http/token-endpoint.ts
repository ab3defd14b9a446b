import type { AuthContext } from './auth-context.js';
import { invalidScopes, narrowScopes, parseScopes } from '../scopes.js';
import { oauthEndpoint } from './oauth-handler.js';
import { OAuthError, sendOAuthJson } from './oauth-response.js';

/**
 * `POST /oauth/token`: the client credentials grant (RFC 6749 §4.4). The requested scopes are
 * narrowed to those the client is allowed; the access token is an RFC 9068 JWT.
 */
export function tokenEndpoint(ctx: AuthContext) {
  return oauthEndpoint(ctx, ['grant_type', 'scope'], async ({ request, reply, form, client }) => {
    const grant = form.get('grant_type');
    if (!grant) throw new OAuthError('invalid_request', 'grant_type is required; this server supports client_credentials');
    if (grant !== 'client_credentials') throw new OAuthError('unsupported_grant_type', `grant_type ${grant} is not supported; use client_credentials`);
    const requested = parseScopes(form.get('scope') ?? '');
    const bad = invalidScopes(requested);
    if (bad.length) throw new OAuthError('invalid_scope', `not valid scope tokens: ${bad.join(' ')}`);
    const scopes = narrowScopes(requested, client.scopes);
    if (requested.length && !scopes.length) throw new OAuthError('invalid_scope', `none of the requested scopes is allowed for this client; it may have: ${client.scopes.join(' ') || '(none)'}`);
    const { token, expiresIn } = await ctx.auth.tokens.issue(ctx.auth.audience(), client.clientId, scopes);
    return sendOAuthJson(reply, 200, { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') });
  });
}
