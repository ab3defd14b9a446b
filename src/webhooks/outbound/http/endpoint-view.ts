import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../core/errors.js';
import type { StoredRecord } from '../../../core/record.js';
import type { Link } from '../../../http/hal.js';
import type { WebhookEndpoint } from '../../../store/outbox.js';
import { viewHeaders } from '../sealed-headers.js';
import { liveSecrets } from '../signing-secrets.js';
import type { EndpointSecret, SecretBox } from '../types.js';
import type { OutboundContext } from './outbound-context.js';
import { windowText } from './rate-window.js';
import { reaches } from './endpoint-ownership.js';
import { endpointFilterView } from './endpoint-filter.js';

/** The collection's path. */
export const ENDPOINTS = '/webhook-endpoints';

/** The path of one endpoint. */
export const endpointPath = (id: string) => `${ENDPOINTS}/${encodeURIComponent(id)}`;

/** How much of a secret the API shows: the prefix and four characters, enough to tell two apart. */
const HINT_LENGTH = 'whsec_'.length + 4;

/** A secret as the API shows it: never the secret itself. */
export interface SecretView {
  hint: string;
  createdAt: string;
  expiresAt: string | null;
}

/**
 * The endpoint's signing secrets as shown (newest first), without the expired ones. Sealed text
 * this server's key cannot open (the key was changed) shows none: a rotation replaces it.
 */
export function secretViews(box: SecretBox, sealed: string, now = Date.now()): SecretView[] {
  let secrets: EndpointSecret[];
  try {
    secrets = liveSecrets(box, sealed, now);
  } catch {
    return [];
  }
  return secrets
    .map((s) => ({ hint: `${s.secret.slice(0, HINT_LENGTH)}…`, createdAt: s.createdAt, expiresAt: s.expiresAt ?? null }))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The HAL representation of an endpoint: what a user set, its health, its secrets' hints, and links to what hangs off it. */
export function halEndpoint(ep: WebhookEndpoint, box: SecretBox): Record<string, unknown> {
  const self = endpointPath(ep.id);
  const links: Record<string, Link> = {
    self: { href: self },
    collection: { href: ENDPOINTS },
    deliveries: { href: `${self}/deliveries`, title: 'What was sent to it, and what is waiting' },
    secrets: { href: `${self}/secrets`, title: 'POST here to rotate the signing secret' },
    replays: { href: `${self}/replays`, title: 'POST here to send events since a time again' },
  };
  return {
    id: ep.id,
    url: ep.url,
    description: ep.description,
    eventTypes: ep.eventTypes,
    enabled: ep.enabled,
    disabledReason: ep.disabledReason,
    headers: viewHeaders(ep.headers),
    rateLimit: ep.rateLimit && { limit: ep.rateLimit.limit, window: windowText(ep.rateLimit.windowMs) },
    filter: endpointFilterView(ep.filter),
    secrets: secretViews(box, ep.sealedSecrets),
    failingSince: ep.failingSince,
    version: ep.version,
    createdAt: ep.createdAt,
    updatedAt: ep.updatedAt,
    owner: ep.owner,
    _links: links,
  };
}

/**
 * The endpoint as the conditional-request checks see a record: its ETag comes from its version
 * (endpoint ids are never reused, so no generation is needed) and Last-Modified from updatedAt.
 */
export function asRecord(ep: WebhookEndpoint): StoredRecord {
  return { id: ep.id, version: ep.version, gen: 'ep', createdAt: ep.createdAt, updatedAt: ep.updatedAt, owner: ep.owner, data: {} };
}

/** The 404 for an endpoint id that names none. */
export function endpointNotFound(id: string): NotFoundError {
  return new NotFoundError(`no webhook endpoint has id ${id}; GET ${ENDPOINTS} lists them`);
}

/** The endpoint the URL's `{id}` names; 404 when there is none, or it is another subscriber's. */
export async function endpointOf(ctx: OutboundContext, request: FastifyRequest): Promise<WebhookEndpoint> {
  const { id } = request.params as { id: string };
  const ep = await ctx.store.outbox.getEndpoint(id);
  if (!ep || !reaches(request, ep)) throw endpointNotFound(id);
  return ep;
}
