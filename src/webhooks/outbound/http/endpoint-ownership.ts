import type { FastifyRequest } from 'fastify';
import { WEBHOOK_SCOPES } from '../../../auth/scope-catalog.js';
import { grants } from '../../../auth/scopes.js';
import type { OwnerAccess, WebhookEndpoint } from '../../../store/outbox.js';
import { ownerAccessOf } from '../owner-rights.js';

/**
 * The subject whose endpoints alone this request may reach, or undefined when it may reach every
 * endpoint. A caller that holds the route's own scope (`webhooks:read` to read, `webhooks:write`
 * to change; the admin scope grants both) sees everything; one let in by `webhooks:own` alone
 * sees only the endpoints it owns, and every other one does not exist for it (404, not 403: it
 * learns nothing of others' endpoints).
 */
export function ownedScope(request: FastifyRequest): string | undefined {
  const principal = request.principal;
  if (!principal) return undefined;
  const needed = request.method === 'GET' || request.method === 'HEAD' ? WEBHOOK_SCOPES.read : WEBHOOK_SCOPES.write;
  return grants(principal.scopes, [needed]) ? undefined : principal.subject;
}

/** True when the request may reach `endpoint` (see ownedScope). */
export function reaches(request: FastifyRequest, endpoint: WebhookEndpoint): boolean {
  const owner = ownedScope(request);
  return owner === undefined || endpoint.owner === owner;
}

/**
 * The owner rights to store with a write, when the caller writes as a subscriber (`webhooks:own`):
 * its rights as of now, which the endpoint receives by. Undefined for an operator's write, which
 * leaves them as they are (none on a new endpoint: it receives every event it subscribes to).
 */
export function ownerAccessFor(request: FastifyRequest): { ownerAccess: OwnerAccess } | Record<string, never> {
  return ownedScope(request) !== undefined && request.principal ? { ownerAccess: ownerAccessOf(request.principal) } : {};
}
