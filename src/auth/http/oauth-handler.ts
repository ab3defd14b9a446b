import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from './auth-context.js';
import type { OAuthClientInfo } from '../oauth-clients.js';
import { authenticateClient } from './client-auth.js';
import { oauthForm } from './oauth-form.js';
import { OAuthError, sendOAuthError } from './oauth-response.js';

/** What an OAuth endpoint's logic receives: the parsed form and the authenticated client. */
export interface OAuthCall {
  request: FastifyRequest;
  reply: FastifyReply;
  form: Map<string, string>;
  client: OAuthClientInfo;
}

/**
 * Wraps the logic of a client-authenticated OAuth endpoint: parses the form (the `params` the
 * endpoint reads, besides the client's credentials; any other is ignored), authenticates the
 * client, and turns every OAuthError into RFC 6749 §5.2 JSON.
 */
export function oauthEndpoint(ctx: AuthContext, params: readonly string[], logic: (call: OAuthCall) => Promise<FastifyReply>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const form = oauthForm(request, params);
      const client = await authenticateClient(ctx.auth.clients, request, form);
      return await logic({ request, reply, form, client });
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(reply, err);
      throw err;
    }
  };
}
