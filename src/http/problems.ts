import type { FastifyReply, FastifyRequest } from 'fastify';
import { prefersHtml, sendProblemPage } from './html-response.js';
import { addVary } from './vary.js';

/** One entry of the problem catalog: a stable code, its status, a title and what it means. */
export interface ProblemType {
  status: number;
  title: string;
  /** What the problem means and how a client fixes it; served at `/problems/{code}`. */
  description: string;
}

/**
 * The one problem catalog (RFC 9457). Every error response the server sends has one of these codes;
 * its `type` is `{base}/problems/{code}`, a page that documents it. Codes never change meaning.
 */
export const PROBLEMS = {
  'malformed-json': { status: 400, title: 'Malformed JSON', description: 'The request body is not valid JSON, or not UTF-8, or not I-JSON (RFC 7493): a member name repeated in one object, or a string or name holding a lone surrogate escape such as `\\ud800` (half of a UTF-16 pair, which is not a Unicode character); or it has a `__proto__` member (or a `constructor` holding `prototype`). The detail gives the parser message, or the JSON Pointer of what was refused and why.' },
  'malformed-body': { status: 400, title: 'Malformed request body', description: 'The request needs a body of another shape, or none was sent.' },
  'invalid-query': { status: 400, title: 'Invalid query parameter', description: 'A query parameter names an unknown field or operator, or its value has the wrong type; or an `expand` path is unknown, too deep or too large; or a json-server parameter (`_page`, `_start`, `_end`, `_like` with a regular expression) has no exact Restwell equivalent. The detail names it, and the Restwell way.' },
  'invalid-id': { status: 400, title: 'Invalid id', description: 'The id in the URL cannot be an id of this resource (integer ids are positive integers; uuid ids are UUIDs; string ids are 1–64 characters of A-Z a-z 0-9 _ -).' },
  'invalid-patch': { status: 400, title: 'Invalid patch document', description: 'The PATCH body is not a valid JSON Patch (RFC 6902) or JSON Merge Patch (RFC 7396) document.' },
  'malformed-authorization': { status: 400, title: 'Malformed Authorization header', description: 'The Authorization header says Bearer but is not `Bearer <token>` (RFC 6750 §2.1): one space, then the token, nothing else.' },
  'invalid-last-event-id': { status: 400, title: 'Unknown Last-Event-ID', description: 'The Last-Event-ID header (or `lastEventId` query parameter) of `GET /events/stream` does not name an event you can read: it must be the `id:` of an event the stream sent (`evt_…`). Reconnect without it to start at the end of the log, or page `GET /events` to find your place.' },
  'malformed-request': { status: 400, title: 'Malformed request', description: 'The HTTP message itself could not be parsed (request line, header syntax or body framing), so no route saw it. The detail names the parser error; the connection was closed.' },
  unauthorized: { status: 401, title: 'Authentication required', description: 'Send a valid bearer token in the Authorization header (an API key or an OAuth 2.0 access token).' },
  'expand-forbidden': { status: 403, title: 'Expansion not allowed', description: 'An `expand` (or json-server `_expand`/`_embed`) path names a resource this request may not read: its read rule needs a token, or a scope the token lacks. The detail names the path and what it needs. Nothing is embedded instead of it, so hidden records never look like absent ones: drop that expansion, or send a token that has the scope.' },
  'read-not-allowed': { status: 403, title: 'Reading not allowed', description: 'This request may change the record but not read it (it passes the resource\'s create, update or delete rule, not its read rule), and the write would read what is stored: a JSON Patch `test`, `copy` or `move` operation, or one whose path goes below a top-level member (whether it applies depends on what is there), or a precondition compared with the stored record (If-Match or If-None-Match with entity tags, If-Unmodified-Since). Its answer would tell what is stored, so nothing is compared and nothing changes: send a merge patch, or JSON Patch `add`/`replace`/`remove` of whole members, with no precondition or `If-Match: *`; or use a token that may read the resource.' },
  'reference-forbidden': { status: 403, title: 'Reference not allowed', description: 'A reference field the write sets names a record of a resource this request may read none of (its read rule needs a token, or a scope the token lacks). Whether that record exists is not for this request to learn, so the reference is refused whether or not it does: leave the field out or unchanged, or send a token that may read the referenced resource. (Under an `owner` read rule, a reference to another subject\'s record is answered as one to a missing record: 422.)' },
  forbidden: { status: 403, title: 'Insufficient scope', description: 'The token is valid but lacks a scope this operation needs; the WWW-Authenticate header names it.' },
  'not-found': { status: 404, title: 'Not found', description: 'Nothing exists at this URL (or it is not visible to you).' },
  'method-not-allowed': { status: 405, title: 'Method not allowed', description: 'This URL does not support the method; the Allow header lists those it does.' },
  'not-acceptable': { status: 406, title: 'Not acceptable', description: 'None of the media types in the Accept header can be produced.' },
  'request-timeout': { status: 408, title: 'Request timeout', description: 'The request did not arrive in time: its headers within server.headersTimeout, or the whole request, body included, within server.requestTimeout. Send each request at once; the connection was closed.' },
  'unique-violation': { status: 409, title: 'Unique value already used', description: 'A field declared unique already has this value in another record. Choose another value, or update that record.' },
  'reference-conflict': { status: 409, title: 'Record still referenced', description: 'Other records reference this one, so it cannot be deleted yet.' },
  'patch-conflict': { status: 409, title: 'Patch does not apply', description: 'The patch is well-formed but cannot apply to the current state (a failed test operation, or a path that does not exist).' },
  'id-taken': { status: 409, title: 'Id already taken', description: 'A POST named the id of the record to create (as json-server front-ends may), and a record with that id already exists. PUT to its URL replaces it; a POST without an id gets a new one.' },
  'idempotency-in-flight': { status: 409, title: 'Request with this Idempotency-Key in progress', description: 'A request with the same Idempotency-Key is still being processed. Retry after it completes.' },
  'precondition-failed': { status: 412, title: 'Precondition failed', description: 'An If-Match or If-None-Match condition does not hold: the record changed (or exists, or does not) since you read it. GET it again and retry.' },
  'body-too-large': { status: 413, title: 'Request body too large', description: 'The request body is larger than the configured limit.' },
  'record-too-large': { status: 413, title: 'Record too large', description: 'The record this write would produce is larger, as JSON, than a record may be (`server.recordLimit`, by default the body limit). A JSON Patch is stopped at the first operation that would cross it (`operation` is its index), before the large value is built; a merge patch, PUT or POST is measured on the whole record. Nothing was stored and no event was written: store less in the record, or split it.' },
  'patch-too-large': { status: 413, title: 'Patch too large', description: 'The JSON Patch has more operations than the server applies in one request, or its `copy` operations together copy more bytes than a record may hold (`server.recordLimit`). Nothing was stored: send the changes in several patches, or the new values themselves instead of copies.' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type', description: 'The Content-Type of the body is not accepted here, or names a charset other than UTF-8 (JSON is UTF-8). For PATCH, the Accept-Patch header lists what is.' },
  'range-not-satisfiable': { status: 416, title: 'Range not satisfiable', description: 'The Range header of a GET of a file served beside the API (`server.static`) asks for bytes the file does not have (it starts past the end, or asks for the last 0 bytes). Content-Range says the file\'s size (`bytes */size`): ask for a range within it, or send no Range to get the whole file.' },
  'expectation-failed': { status: 417, title: 'Expectation failed', description: 'The Expect header asks for something other than 100-continue, the only expectation HTTP defines (RFC 9110 §10.1.1). Send the request without it.' },
  'validation-failed': { status: 422, title: 'Validation failed', description: 'The body is well-formed but breaks the resource rules, nests deeper than the server allows (`server.maxJsonDepth`), or holds a number too large for a double (such as 1e400); `errors` lists each field (as a JSON Pointer) and what is wrong.' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency-Key reused', description: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.' },
  'batch-too-large': { status: 413, title: 'Batch too large', description: 'A `POST /batch` holds more sub-requests, or a bulk create (`POST /{collection}` with a JSON array) more records, than one transaction takes (`server.batch.maxRequests`, 100 by default), or the batch body is larger than `server.batch.maxBytes`. Nothing was applied: split it into several requests.' },
  'batch-failed': { status: 422, title: 'Batch item failed', description: 'An item of a `POST /batch` failed, so nothing in the batch was applied (it runs as one transaction). The response has that item\'s own status (shown here is the usual one, 422); `index` is the item\'s 0-based position in `requests`, and `problem` is the problem the item would have been answered with on its own (its `type`, `status`, `detail`, `errors`…). Fix that item and send the whole batch again.' },
  'precondition-required': { status: 428, title: 'Precondition required', description: 'This resource requires conditional writes: send If-Match with the ETag you last read.' },
  'rate-limited': { status: 429, title: 'Too many requests', description: 'The rate limit is exhausted; Retry-After says when to retry, the RateLimit header shows the quota.' },
  'too-many-connections': { status: 429, title: 'Too many connections', description: 'This client address already holds as many open connections as the server allows (server.maxConnectionsPerClient). Reuse an open connection (keep-alive) or close one, then retry after Retry-After seconds; this connection was closed.' },
  'headers-too-large': { status: 431, title: 'Request header fields too large', description: 'The request line and headers together exceed the server\'s limit (16 KiB unless Node runs with --max-http-header-size). Send fewer or shorter headers (an oversized cookie or token is the usual cause); the connection was closed.' },
  'webhook-unverified': { status: 401, title: 'Webhook not verified', description: 'The delivery to POST /webhooks/{source} does not carry a valid signature or credentials for that source (wrong secret, tampered body, stale timestamp or missing header). Nothing was stored or processed; the detail says which check failed.' },
  'webhook-rejected': { status: 403, title: 'Webhook delivery rejected', description: 'The delivery is genuine but can never be processed (its payload is unreadable or breaks the target resource\'s rules). Sent to providers such as Postmark for whom 403 means "do not retry"; the delivery is kept in the inbox as failed.' },
  'webhook-not-acceptable': { status: 406, title: 'Webhook delivery not acceptable', description: 'The delivery is genuine but can never be processed. Sent to Mailgun, for whom 406 means "rejected, do not retry"; the delivery is kept in the inbox as failed.' },
  'webhook-payload-invalid': { status: 422, title: 'Webhook payload invalid', description: 'The delivery is genuine but its payload is not in the provider\'s format, or cannot become a record of the target resource. The delivery is kept in the inbox as failed; the detail says what is wrong.' },
  'webhook-already-processed': { status: 409, title: 'Delivery already processed', description: 'The delivery\'s actions already ran successfully; another attempt would repeat them (e.g. create a second record). Only received or failed deliveries take new attempts.' },
  'webhook-delivery-busy': { status: 409, title: 'Delivery attempt under way', description: 'An attempt at this outbound webhook delivery is being made right now (by the dispatcher or another redelivery), so another one is not started beside it. GET the delivery\'s attempts to see how it went, then POST again if it still needs sending.' },
  'events-expired': { status: 410, title: 'Events no longer kept', description: 'The `cursor` of `GET /events` or the Last-Event-ID of `GET /events/stream` points before the oldest event the log still keeps: the events right after it were pruned by retention (events.retention: maxAge, maxCount), so resuming there would silently skip them. The detail names the last position pruned and when it was written. To resync, re-read the current state you derive from events (list the collections you mirror), then page `GET /events` from the start (no cursor: the oldest event kept) or open the stream without Last-Event-ID (it starts at the end of the log). Keep a reader within retention to avoid this: poll more often than maxAge, or subscribe an outbound webhook endpoint, whose unsent events are never pruned.' },
  internal: { status: 500, title: 'Internal server error', description: 'An unexpected error. It has been logged; retrying may help.' },
  'not-implemented': { status: 501, title: 'Method not implemented', description: 'The server does not implement this HTTP method on any resource.' },
  'too-many-streams': { status: 503, title: 'Too many event streams', description: 'This node already serves as many event streams as it allows (events.stream.maxClients). Retry after Retry-After seconds, or read `GET /events` meanwhile; nothing is lost, since the stream resumes from Last-Event-ID.' },
  'shutting-down': { status: 503, title: 'Server shutting down', description: 'This server is draining its requests before it stops (SIGTERM), so it takes no new ones. Send the request to another instance, or retry after Retry-After seconds once it has restarted; nothing was changed.' },
  'insufficient-storage': { status: 507, title: 'Insufficient storage', description: 'The database has no storage space left (its disk is full), so the write could not be stored. Nothing was changed; reads still work. Writes succeed again by themselves once the operator frees space: retry after Retry-After seconds.' },
  unavailable: { status: 503, title: 'Service unavailable', description: 'The database cannot be reached right now. Nothing was changed; retry after Retry-After seconds.' },
} as const satisfies Record<string, ProblemType>;

/** A code of the problem catalog. */
export type ProblemCode = keyof typeof PROBLEMS;

/** True when `code` is in the catalog. */
export function isProblemCode(code: string): code is ProblemCode {
  return Object.hasOwn(PROBLEMS, code);
}

/**
 * The absolute base URL of this server (ServerOrigin: publicUrl, else the configured host and the
 * port bound), the base of problem types and OAuth metadata. Never the request's Host header, which
 * the client chooses. Links in representations (`_links`, Location) are relative, so need none.
 */
export function baseUrl(request: FastifyRequest): string {
  return request.server.restwell.origin.url;
}

/**
 * Sends an RFC 9457 problem response for a catalog code: application/problem+json, or, for a
 * client that prefers text/html (a browser), the same problem as a readable page with the same
 * status and headers. `Vary: Accept` tells caches the two apart.
 */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string,
  extra: Record<string, unknown> = {},
): FastifyReply {
  const body = problemBody(request, code, detail, extra);
  reply.code(PROBLEMS[code].status);
  addVary(reply, 'Accept');
  if (prefersHtml(request)) return sendProblemPage(request, reply, baseUrl(request), body);
  return reply.type('application/problem+json').send(body);
}

/** The RFC 9457 body of a catalog problem, for callers that store a response before sending it. */
export function problemBody(request: FastifyRequest, code: ProblemCode, detail: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const p = PROBLEMS[code];
  return { type: `${baseUrl(request)}/problems/${code}`, title: p.title, status: p.status, detail, instance: request.url, ...extra };
}

