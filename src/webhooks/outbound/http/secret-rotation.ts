import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseDurationMs } from '../../../config/sizes.js';
import { ValidationError, type FieldError } from '../../../core/errors.js';
import { etagOf } from '../../../core/record.js';
import { checkPreconditions } from '../../../http/conditional.js';
import { sendRepresentation } from '../../../http/respond.js';
import type { WebhookEndpoint } from '../../../store/outbox.js';
import { endpointSecretError, generateEndpointSecret } from '../secrets.js';
import type { EndpointSecret, SecretBox } from '../types.js';
import { asRecord, endpointNotFound, endpointPath, halEndpoint } from './endpoint-view.js';
import { reaches } from './endpoint-ownership.js';
import type { OutboundContext } from './outbound-context.js';

/** The longest overlap a rotation may ask for: a previous secret is meant to be retired, not kept. */
export const MAX_OVERLAP_MS = 30 * 86_400_000;
/** Previous secrets that keep signing at once, at most; a rotation beyond that ends the oldest now (every one adds a signature to each delivery). */
export const MAX_PREVIOUS_SECRETS = 4;

/** A validated rotation request: the new secret (given or generated) and how long the previous ones keep signing. */
export interface RotationInput {
  secret: string;
  overlapMs: number;
}

/** Validates `{secret?, overlap?}` (an empty or absent body generates a secret with the configured overlap). */
export function parseRotation(body: unknown, defaultOverlapMs: number): RotationInput {
  const b = body === undefined || body === null ? {} : body;
  if (typeof b !== 'object' || Array.isArray(b)) throw new ValidationError([{ pointer: '', detail: 'must be a JSON object: {} to generate a secret, or {"secret": "whsec_…", "overlap": "24h"}' }]);
  const r = b as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(r)) if (key !== 'secret' && key !== 'overlap') errors.push({ pointer: `/${key}`, detail: 'unknown member; allowed: secret, overlap' });
  let secret = generateEndpointSecret();
  if (r.secret !== undefined && r.secret !== null) {
    const problem = typeof r.secret === 'string' ? endpointSecretError(r.secret) : 'must be a string (whsec_…), or left out to have one generated';
    if (problem) errors.push({ pointer: '/secret', detail: problem });
    else secret = r.secret as string;
  }
  let overlapMs = defaultOverlapMs;
  if (r.overlap !== undefined) {
    overlapMs = typeof r.overlap === 'string' && r.overlap.length <= 20 ? safeDuration(r.overlap) : NaN;
    if (!(overlapMs >= 0 && overlapMs <= MAX_OVERLAP_MS)) errors.push({ pointer: '/overlap', detail: 'must be a duration from 0s to 30d, such as "24h"; "0s" retires the previous secret at once' });
  }
  if (errors.length) throw new ValidationError(errors);
  return { secret, overlapMs };
}

function safeDuration(text: string): number {
  try {
    return parseDurationMs(text);
  } catch {
    return NaN;
  }
}

/**
 * The secrets after a rotation at `now`: the new one first, then the previous ones still signing,
 * each ending at `now + overlap` unless it ends sooner already. Sealed text this key cannot open
 * is dropped: rotating is how an endpoint recovers from a changed secret key.
 */
export function rotatedSecrets(box: SecretBox, sealed: string, input: RotationInput, now: number): EndpointSecret[] {
  let previous: EndpointSecret[];
  try {
    previous = box.open(sealed);
  } catch {
    previous = [];
  }
  const ends = new Date(now + input.overlapMs).toISOString();
  const kept = previous
    .map((s) => ({ ...s, expiresAt: s.expiresAt && s.expiresAt < ends ? s.expiresAt : ends }))
    .filter((s) => Date.parse(s.expiresAt) > now)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, MAX_PREVIOUS_SECRETS);
  if (kept.some((s) => s.secret === input.secret)) throw new ValidationError([{ pointer: '/secret', detail: 'is already a secret of this endpoint; send a new one, or none to have one generated' }]);
  return [{ secret: input.secret, createdAt: new Date(now).toISOString() }, ...kept];
}

/**
 * `POST /webhook-endpoints/{id}/secrets`: rotates the signing secret. 201 with the endpoint and
 * the new `secret`, shown this once (no-store); the previous secret keeps signing until
 * now + overlap, so receivers can switch without missing a delivery. If-Match is honoured.
 */
export function rotateSecret(ctx: OutboundContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const input = parseRotation(request.body, ctx.outbound.settings.rotationOverlapMs);
    const result = await ctx.store.outbox.updateEndpoint(id, (current) => {
      if (!current || !reaches(request, current)) throw endpointNotFound(id);
      checkPreconditions(request.headers, asRecord(current));
      const sealedSecrets = ctx.outbound.secrets.seal(rotatedSecrets(ctx.outbound.secrets, current.sealedSecrets, input, Date.now()));
      return { put: { ...userFields(current), sealedSecrets } };
    });
    const ep = result.endpoint;
    if (!ep) throw endpointNotFound(id);
    reply.header('cache-control', 'no-store');
    return sendRepresentation(request, reply, 201, { ...halEndpoint(ep, ctx.outbound.secrets), secret: input.secret }, {
      etag: etagOf(asRecord(ep)),
      location: endpointPath(ep.id),
      lastModified: ep.updatedAt,
    });
  };
}

function userFields(ep: WebhookEndpoint) {
  return { url: ep.url, description: ep.description, eventTypes: ep.eventTypes, enabled: ep.enabled, headers: ep.headers, rateLimit: ep.rateLimit, filter: ep.filter };
}
