import type { RestwellConfig } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import { decide, rulesFor, type ResourceOperation } from './access.js';
import type { Principal } from './principal.js';
import { ADMIN_SCOPE, grants } from './scopes.js';

/** What one collection lets the caller do. */
export interface CollectionRights {
  read: boolean;
  create: boolean;
  update: boolean;
  delete: boolean;
}

/** What a token is and may do, as `GET /me` tells it (so a client offers only what will succeed). */
export interface CallerRights {
  kind: 'api-key' | 'oauth-client' | 'jwt';
  subject: string;
  clientId?: string;
  /** When the credential stops working (ISO 8601), if it does. */
  expiresAt?: string;
  scopes: string[];
  admin: boolean;
  collections: Record<string, CollectionRights>;
  /** May read the event log (`GET /events`). */
  events: boolean;
  /** May manage outbound webhooks (`webhooks:write`). */
  webhooks: boolean;
  /** May read outbound webhooks and their deliveries (`webhooks:read`). */
  webhooksRead: boolean;
  /** May create and manage endpoints of its own, which receive only the events it may read (`webhooks:own`). */
  webhooksOwn: boolean;
  /** May read the webhook inboxes (admin only). */
  inbox: boolean;
  /** May scrape `/metrics`. */
  metrics: boolean;
}

/**
 * The scopes the non-resource routes demand. They mirror the rows of those features (events,
 * outbound webhooks, ops), which auth may not import; a test holds each against its route.
 */
export const FEATURE_SCOPES = { events: ['events:read'], webhooks: ['webhooks:write'], webhooksRead: ['webhooks:read'], webhooksOwn: ['webhooks:own'], metrics: ['metrics:read'] } as const;

const passes = (rules: ReturnType<typeof rulesFor>, principal: Principal) => decide(rules, principal).allow;

/** How the token was verified, in the words a user knows. */
function kindOf(principal: Principal): CallerRights['kind'] {
  if (principal.via === 'api-key') return 'api-key';
  return principal.via === 'access-token' && principal.clientId !== undefined ? 'oauth-client' : 'jwt';
}

/**
 * What `principal` may do, decided by the same access rules the route guards apply: a collection
 * is readable when its read rule passes (an `owner` rule passes: the caller sees its own records),
 * writable per operation likewise.
 */
export function callerRights(principal: Principal, resources: Iterable<ResourceDefinition>, config: Pick<RestwellConfig, 'server'>): CallerRights {
  const collections: Record<string, CollectionRights> = {};
  const may = (resource: ResourceDefinition, op: ResourceOperation) => passes(rulesFor(resource, op), principal);
  for (const r of resources) collections[r.name] = { read: may(r, 'read'), create: may(r, 'create'), update: may(r, 'patch'), delete: may(r, 'delete') };
  const metricsSetting = config.server.metrics ?? 'token';
  return {
    kind: kindOf(principal),
    subject: principal.subject,
    ...(principal.clientId !== undefined ? { clientId: principal.clientId } : {}),
    ...(principal.expiresAt !== undefined ? { expiresAt: new Date(principal.expiresAt * 1000).toISOString() } : {}),
    scopes: [...principal.scopes].sort(),
    admin: principal.scopes.has(ADMIN_SCOPE),
    collections,
    events: grants(principal.scopes, FEATURE_SCOPES.events),
    webhooks: grants(principal.scopes, FEATURE_SCOPES.webhooks),
    webhooksRead: grants(principal.scopes, FEATURE_SCOPES.webhooksRead),
    webhooksOwn: grants(principal.scopes, FEATURE_SCOPES.webhooksOwn),
    inbox: principal.scopes.has(ADMIN_SCOPE),
    metrics: metricsSetting === 'public' || (metricsSetting !== 'off' && grants(principal.scopes, FEATURE_SCOPES.metrics)),
  };
}
