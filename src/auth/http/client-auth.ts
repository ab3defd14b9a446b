import type { FastifyRequest } from 'fastify';
import type { OAuthClientInfo, OAuthClients } from '../oauth-clients.js';
import { OAuthError } from './oauth-response.js';

const BASIC = /^Basic +([A-Za-z0-9+/]+=*) *$/i;

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64 (`+` is a space). */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * Authenticates the calling OAuth client by HTTP Basic (client_secret_basic) or by the
 * client_id/client_secret form parameters (client_secret_post), never both (RFC 6749 §2.3).
 */
export async function authenticateClient(clients: OAuthClients, request: FastifyRequest, form: Map<string, string>): Promise<OAuthClientInfo> {
  const header = request.headers.authorization;
  const formSecret = form.get('client_secret');
  if (header !== undefined) {
    const encoded = BASIC.exec(header)?.[1];
    if (!encoded) throw new OAuthError('invalid_client', 'authenticate the client with HTTP Basic or client_id and client_secret in the form');
    if (formSecret !== undefined) throw new OAuthError('invalid_request', 'use one client authentication method, not Basic and client_secret together');
    const text = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = text.indexOf(':');
    const id = colon > 0 ? formDecode(text.slice(0, colon)) : undefined;
    const secret = colon > 0 ? formDecode(text.slice(colon + 1)) : undefined;
    if (id === undefined || secret === undefined) throw new OAuthError('invalid_client', 'the Basic credentials are not client_id:client_secret');
    if (form.has('client_id') && form.get('client_id') !== id) throw new OAuthError('invalid_request', 'client_id in the form differs from the authenticated client');
    const client = await clients.authenticate(id, secret);
    if (!client) throw new OAuthError('invalid_client', 'client authentication failed');
    return client;
  }
  const id = form.get('client_id');
  if (id === undefined || formSecret === undefined) throw new OAuthError('invalid_client', 'client authentication is required: HTTP Basic, or client_id and client_secret in the form');
  const client = await clients.authenticate(id, formSecret);
  if (!client) throw new OAuthError('invalid_client', 'client authentication failed');
  return client;
}
