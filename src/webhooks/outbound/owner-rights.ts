import { eventVisibility } from '../../auth/access.js';
import type { Principal } from '../../auth/principal.js';
import type { EventRecord } from '../../core/events.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { isEventVisible, type EventVisibility } from '../../store/event-query.js';
import type { Audience, OwnerAccess, WebhookEndpoint } from '../../store/outbox.js';

/** What an endpoint whose owner's rights cannot be judged receives: nothing (failing closed). */
const NOTHING: EventVisibility = Object.freeze({ resources: [] });

/** Why a delivery was not sent: its endpoint's owner may not read its event (any more). */
export const HIDDEN_FROM_OWNER = 'not sent: the endpoint\'s owner may not read this event (its record is not theirs, or their scopes do not cover its resource)';

/**
 * The rights to store on an endpoint that `principal` manages as its own: how it authenticated,
 * its scopes, and the credential a revocation deletes (an API key's document, an OAuth client).
 */
export function ownerAccessOf(principal: Principal): OwnerAccess {
  const scopes = [...principal.scopes].sort();
  if (principal.via === 'api-key' && principal.keyHash !== undefined) return { kind: 'api-key', scopes, credential: principal.keyHash };
  if (principal.via === 'access-token' && principal.clientId !== undefined) return { kind: 'oauth-client', scopes, credential: principal.clientId };
  return { kind: 'jwt', scopes };
}

/** The owner of an endpoint as a principal, with the rights stored on it, for the access rules to judge. */
export function ownerPrincipal(endpoint: WebhookEndpoint): Principal | undefined {
  const access = endpoint.ownerAccess;
  if (!access || endpoint.owner === null) return undefined;
  return {
    subject: endpoint.owner,
    scopes: new Set(access.scopes),
    via: access.kind === 'api-key' ? 'api-key' : access.kind === 'oauth-client' ? 'access-token' : 'external',
    ...(access.kind === 'oauth-client' ? { clientId: access.credential } : {}),
    rateKey: `owner:${endpoint.owner}`,
  };
}

/**
 * The audience of the outbox's derive: an owned endpoint may receive what its owner may read now,
 * by the same rules as `/events` and `/events/stream` (resources' read scopes, `owner` rules) and
 * the resources as configured now; an operator's endpoint (no owner rights) receives everything.
 */
export function ownerAudience(resources: () => Iterable<ResourceDefinition>): Audience {
  return (endpoint) => {
    if (!endpoint.ownerAccess) return undefined;
    const principal = ownerPrincipal(endpoint);
    return principal ? eventVisibility(resources(), principal) : NOTHING;
  };
}

/** An audience for a hub no app has wired: owned endpoints receive nothing rather than everything. */
export const CLOSED_AUDIENCE: Audience = (endpoint) => (endpoint.ownerAccess ? NOTHING : undefined);

/** Why `event` must not be sent to `endpoint` (checked again right before sending), or undefined when it may be. */
export function hiddenFromOwner(audience: Audience, endpoint: WebhookEndpoint, event: Pick<EventRecord, 'resource' | 'owner'>): string | undefined {
  if (!endpoint.ownerAccess) return undefined;
  return isEventVisible(audience(endpoint), event) ? undefined : HIDDEN_FROM_OWNER;
}
