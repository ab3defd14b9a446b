import { JSON_BODY_TYPES, PATCH_TYPES } from '../body-types.js';
import type { Json } from './components.js';
import type { SchemaContext } from './schemas.js';

/** Response headers the server sends, documented once each. */
const RESPONSE_HEADERS: Record<string, { name: string; doc: Json }> = {
  etag: {
    name: 'ETag',
    doc: {
      description: 'Strong entity tag of this representation (JSON, HAL and HTML each have their own; all change on every write); send it in If-Match / If-None-Match',
      schema: { type: 'string', pattern: '^(W/)?".*"$' },
    },
  },
  location: { name: 'Location', doc: { description: 'Path of the record', schema: { type: 'string', format: 'uri-reference' } } },
  'last-modified': { name: 'LastModified', doc: { description: 'When the record last changed (HTTP date); send it in If-Modified-Since / If-Unmodified-Since', schema: { type: 'string' } } },
  vary: { name: 'Vary', doc: { description: 'The request headers the answer depends on: Accept (the representation), Authorization where access depends on the caller, and Prefer on a write that sent one', schema: { type: 'string' } } },
  link: {
    name: 'Link',
    doc: { description: 'RFC 8288 links to the first, next and prev pages (next and prev only when there is such a page), and on a log the `poll` link for entries added later, e.g. `</characters?cursor=…>; rel="next"`', schema: { type: 'string' } },
  },
  allow: { name: 'Allow', doc: { description: 'The methods this path supports', schema: { type: 'string' } } },
  'accept-patch': { name: 'AcceptPatch', doc: { description: 'The patch formats PATCH accepts (RFC 5789)', schema: { type: 'string', example: PATCH_TYPES.join(', ') } } },
  'accept-post': { name: 'AcceptPost', doc: { description: 'The body types POST accepts (W3C LDP §7.1)', schema: { type: 'string', example: JSON_BODY_TYPES.join(', ') } } },
  accept: { name: 'Accept', doc: { description: 'On a 415 of PUT: the body types PUT accepts (RFC 9110 §12.5.1)', schema: { type: 'string', example: JSON_BODY_TYPES.join(', ') } } },
  'idempotent-replayed': {
    name: 'IdempotentReplayed',
    doc: { description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
  },
  'retry-after': { name: 'RetryAfter', doc: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } } },
  ratelimit: {
    name: 'RateLimit',
    doc: {
      description: 'What is left of the quota (draft-ietf-httpapi-ratelimit-headers): `"<policy>";r=<remaining>;t=<seconds until the window resets>`',
      schema: { type: 'string', pattern: '^"[^"]*";r=\\d+;t=\\d+$', example: '"default";r=999;t=60' },
    },
  },
  'ratelimit-policy': {
    name: 'RateLimitPolicy',
    doc: {
      description: 'The quota that applies (draft-ietf-httpapi-ratelimit-headers): `"<policy>";q=<requests>;w=<window seconds>`',
      schema: { type: 'string', pattern: '^"[^"]*";q=\\d+;w=\\d+$', example: '"default";q=1000;w=60' },
    },
  },
  'www-authenticate': {
    name: 'WWWAuthenticate',
    doc: {
      description: 'The challenge (RFC 9110 §11.6.1): `Bearer realm="restwell"` with `error`, `error_description` and `scope` (RFC 6750 §3) for bearer tokens, `Basic realm=…` where client or sender credentials are HTTP Basic',
      schema: { type: 'string', pattern: '^(Bearer|Basic) realm="[^"]*"' },
    },
  },
  'cache-control': { name: 'CacheControl', doc: { description: 'Caching rules of the response (`no-store` where it carries a secret or a token)', schema: { type: 'string' } } },
};

/** A response header the server sends. */
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/**
 * A `$ref` to a documented response header (by lower-case name). `required` says the header is on
 * every response of that status, so a client may rely on it; the two variants are two components.
 */
export function header(ctx: SchemaContext, name: ResponseHeader, required = true): { $ref: string } {
  const h = RESPONSE_HEADERS[name];
  return ctx.components.ref('headers', `${name}:${required}`, required ? h.name : `${h.name}Optional`, () => ({ ...h.doc, required }));
}

/** Request headers operations accept, as parameters. */
const REQUEST_HEADERS: Record<string, { name: string; doc: Json }> = {
  'if-match': {
    name: 'IfMatch',
    doc: {
      name: 'If-Match',
      in: 'header',
      description:
        'Only if the record still has this ETag (or exists, for `*`); otherwise 412. Protects against lost updates. ' +
        'Compared with the ETag of the representation this request\'s Accept selects.',
      schema: { type: 'string', minLength: 1 },
    },
  },
  'if-unmodified-since': {
    name: 'IfUnmodifiedSince',
    doc: { name: 'If-Unmodified-Since', in: 'header', description: 'Only if the record has not changed since this HTTP date; otherwise 412. Ignored when If-Match is sent.', schema: { type: 'string' } },
  },
  'if-none-match': {
    name: 'IfNoneMatch',
    doc: { name: 'If-None-Match', in: 'header', description: 'ETags you hold: 304 Not Modified when one is current', schema: { type: 'string', minLength: 1 } },
  },
  'if-modified-since': {
    name: 'IfModifiedSince',
    doc: { name: 'If-Modified-Since', in: 'header', description: '304 Not Modified when the record has not changed since this HTTP date. Ignored when If-None-Match is sent.', schema: { type: 'string' } },
  },
  'idempotency-key': {
    name: 'IdempotencyKey',
    doc: {
      name: 'Idempotency-Key',
      in: 'header',
      description:
        'A unique key (e.g. a UUID) that makes a retry safe: a retry with the same key and body returns the first response and changes nothing; ' +
        'the same key with another body is 422; a retry while the first is in progress is 409. Keys are remembered for a configured time (24 h by default).',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e][\\x20-\\x7e]*$' },
    },
  },
};

/** A `$ref` to a documented request header parameter (by lower-case name). */
export function headerParameter(ctx: SchemaContext, name: keyof typeof REQUEST_HEADERS): { $ref: string } {
  const h = REQUEST_HEADERS[name];
  return ctx.components.ref('parameters', name, h.name, () => h.doc);
}
