import { ValidationError, type FieldError } from '../../../core/errors.js';
import type { EndpointInput, EndpointRateLimit } from '../../../store/outbox.js';
import type { AddressPolicy } from '../address-policy.js';
import { checkEndpointUrl } from '../endpoint-url.js';
import { sealHeaders } from '../sealed-headers.js';
import { endpointSecretError } from '../secrets.js';
import type { SecretBox } from '../types.js';
import { checkHeaders } from './endpoint-headers.js';
import { parseEndpointFilter } from './endpoint-filter.js';
import type { ResourceDefinition } from '../../../core/resource.js';
import { eventTypePatternError, MAX_EVENT_TYPE_PATTERNS } from './event-type-patterns.js';
import { parseWindow } from './rate-window.js';

/** What a user sets on an endpoint, before its secrets are sealed. */
export type EndpointFields = Omit<EndpointInput, 'sealedSecrets'>;

/** What the checks of a body need: the SSRF policy the url is judged by and the event types there are. */
export interface InputRules {
  policy: AddressPolicy;
  eventTypes: readonly string[];
  /** The collections an endpoint's `filter` may name (endpoint-filter.ts). */
  resources?: ReadonlyMap<string, ResourceDefinition>;
}

export const MAX_DESCRIPTION = 500;
export const MAX_RATE_LIMIT = 1_000_000;

const WRITABLE = ['url', 'description', 'eventTypes', 'enabled', 'headers', 'rateLimit', 'filter'];
/** Members of the representation a client may send back with PUT (a GET body PUT back as it is); they are not written. */
const READ_ONLY = new Set(['id', 'secrets', 'disabledReason', 'failingSince', 'version', 'createdAt', 'updatedAt', 'owner', '_links', '_embedded']);

/**
 * Validates the body of `POST /webhook-endpoints` (`create`, which may carry a `secret`) or the
 * whole endpoint of a PUT or a patched one (`replace`: read-only members are ignored, and the
 * secret is changed only by a rotation). Throws a ValidationError naming every bad member.
 */
export function parseEndpointInput(body: unknown, rules: InputRules, mode: 'create' | 'replace', id?: string): { fields: EndpointFields; secret?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError([{ pointer: '', detail: 'must be a JSON object such as {"url": "https://example.com/webhooks"}' }]);
  }
  const b = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of Object.keys(b)) {
    if (WRITABLE.includes(key) || (mode === 'create' && key === 'secret') || (mode === 'replace' && READ_ONLY.has(key))) continue;
    const detail = key === 'secret' ? 'an endpoint\'s secret changes only by rotation: POST /webhook-endpoints/{id}/secrets' : `unknown member; allowed: ${[...WRITABLE, ...(mode === 'create' ? ['secret'] : [])].join(', ')}`;
    errors.push({ pointer: `/${key}`, detail });
  }
  if (mode === 'replace' && b.id !== undefined && b.id !== id) errors.push({ pointer: '/id', detail: `is ${JSON.stringify(b.id)} but the URL names ${id}; an endpoint's id cannot change` });
  const fields: EndpointFields = {
    url: url(b.url, rules.policy, errors),
    description: description(b.description, errors),
    eventTypes: eventTypes(b.eventTypes, rules.eventTypes, errors),
    enabled: enabled(b.enabled, errors),
    headers: b.headers === undefined || b.headers === null ? {} : checkHeaders(b.headers, errors),
    rateLimit: rateLimit(b.rateLimit, errors),
    filter: parseEndpointFilter(b.filter, rules.resources ?? new Map(), errors),
  };
  let secret: string | undefined;
  if (mode === 'create' && b.secret !== undefined && b.secret !== null) {
    const problem = typeof b.secret === 'string' ? endpointSecretError(b.secret) : 'must be a string (whsec_…), or left out to have one generated';
    if (problem) errors.push({ pointer: '/secret', detail: problem });
    else secret = b.secret as string;
  }
  if (errors.length) throw new ValidationError(errors);
  return { fields, secret };
}

function url(value: unknown, policy: AddressPolicy, errors: FieldError[]): string {
  if (typeof value !== 'string' || !value) {
    errors.push({ pointer: '/url', detail: 'required: the http or https URL deliveries are POSTed to' });
    return '';
  }
  const problem = checkEndpointUrl(value, policy);
  if (problem) errors.push({ pointer: '/url', detail: problem });
  return value;
}

function description(value: unknown, errors: FieldError[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > MAX_DESCRIPTION) {
    errors.push({ pointer: '/description', detail: `must be a string of at most ${MAX_DESCRIPTION} characters` });
    return null;
  }
  return value;
}

function eventTypes(value: unknown, known: readonly string[], errors: FieldError[]): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_EVENT_TYPE_PATTERNS) {
    const detail = Array.isArray(value) && value.length === 0
      ? 'must not be empty: leave it out (or null) for every event, or set enabled to false to pause the endpoint'
      : `must be a list of 1 to ${MAX_EVENT_TYPE_PATTERNS} event type patterns, e.g. ["characters.*"], or null for every event`;
    errors.push({ pointer: '/eventTypes', detail });
    return null;
  }
  value.forEach((p, i) => {
    const problem = typeof p === 'string' ? eventTypePatternError(p, known) : 'must be a string';
    if (problem) errors.push({ pointer: `/eventTypes/${i}`, detail: problem });
  });
  return [...new Set(value as string[])];
}

function enabled(value: unknown, errors: FieldError[]): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'boolean') errors.push({ pointer: '/enabled', detail: 'must be true or false' });
  return value !== false;
}

function rateLimit(value: unknown, errors: FieldError[]): EndpointRateLimit | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push({ pointer: '/rateLimit', detail: 'must be {"limit": 10, "window": "1s"}, or null for no limit' });
    return null;
  }
  const r = value as Record<string, unknown>;
  for (const key of Object.keys(r)) if (key !== 'limit' && key !== 'window') errors.push({ pointer: `/rateLimit/${key}`, detail: 'unknown member; allowed: limit, window' });
  const limit = r.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_RATE_LIMIT) {
    errors.push({ pointer: '/rateLimit/limit', detail: `required: an integer from 1 to ${MAX_RATE_LIMIT}, the deliveries allowed per window` });
  }
  const windowMs = parseWindow(r.window);
  if (typeof windowMs === 'string') errors.push({ pointer: '/rateLimit/window', detail: windowMs });
  return { limit: Number(limit), windowMs: typeof windowMs === 'number' ? windowMs : 0 };
}

/**
 * The headers to store: credential values sealed, `[redacted]` standing for the value `stored`
 * has (see sealHeaders); a `[redacted]` with nothing stored behind it is a 422.
 */
export function sealedHeaders(box: SecretBox, headers: Record<string, string>, stored?: Record<string, string>): Record<string, string> {
  const errors: FieldError[] = [];
  const out = sealHeaders(box, headers, stored, errors);
  if (errors.length) throw new ValidationError(errors);
  return out;
}
