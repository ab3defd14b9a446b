import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notModified, representationEtag } from './conditional.js';
import { sendPage } from './html-response.js';
import { mediaType, negotiate } from './negotiate.js';
import { baseUrl } from './problems.js';
import { addVary } from './vary.js';

/** Headers a representation response may carry. */
export interface RepresentationHeaders {
  /** The record's ETag; each representation is sent with its own variant of it. */
  etag?: string;
  location?: string;
  lastModified?: string;
  link?: string;
}

/**
 * Sends a representation in the negotiated media type: JSON and HAL get the same body, HTML
 * gets the browsable page of it (with forms on a resource's collection and records). `Vary: Accept` keeps caches from mixing them up. A 304 goes
 * through here too, so it carries the ETag, Last-Modified and Vary its 200 would. `json`, when
 * given, is `body` already serialized (a cached record's), sent as is for JSON and HAL.
 */
export function sendRepresentation(request: FastifyRequest, reply: FastifyReply, status: number, body: Record<string, unknown>, headers: RepresentationHeaders = {}, json?: string): FastifyReply {
  const rep = negotiate(request);
  addVary(reply.code(status), 'Accept');
  if (headers.etag) reply.header('etag', representationEtag(headers.etag, rep));
  if (headers.location) reply.header('location', headers.location);
  if (headers.lastModified) reply.header('last-modified', httpDateOf(headers.lastModified));
  if (headers.link) reply.header('link', headers.link);
  if (status === 304) return sendNotModified(request, reply);
  if (rep === 'html') return sendPage(request, reply, baseUrl(request), body, headers.etag);
  return reply.type(mediaType(rep)).send(json ?? JSON.stringify(body));
}

/**
 * The answer to a write whose writer may not read the record it wrote: 201 with the Location of a
 * record it created, else 204, and nothing of the record: no body, links, ETag or Last-Modified
 * (an ETag would let it probe the stored state with If-Match).
 */
export function sendWithoutRecord(reply: FastifyReply, created: boolean, location?: string): FastifyReply {
  // Who asks decided that the record is left out.
  addVary(reply, 'Authorization');
  if (location) reply.header('location', location);
  return reply.code(created ? 201 : 204).send();
}

/**
 * The answer to a write that asked for `Prefer: return=minimal` (RFC 7240 §4.2): no body, 201 with
 * the Location of a created record or 204, and the ETag and Last-Modified its representation would
 * have had, so the next conditional write can follow without a GET. The ETag is the one of the
 * representation this request's Accept selects (hence `Vary: Accept`), the one its If-Match is compared with.
 */
export function sendMinimal(request: FastifyRequest, reply: FastifyReply, status: 201 | 204, headers: RepresentationHeaders): FastifyReply {
  addVary(reply, 'Accept');
  if (headers.etag) reply.header('etag', representationEtag(headers.etag, negotiate(request)));
  if (headers.location) reply.header('location', headers.location);
  if (headers.lastModified) reply.header('last-modified', httpDateOf(headers.lastModified));
  return reply.code(status).send();
}

const httpDates = new Map<string, string>();

/** The HTTP-date of an ISO timestamp; a hot record's is formatted once, not on every response. */
export function httpDateOf(iso: string): string {
  let date = httpDates.get(iso);
  if (date === undefined) {
    date = new Date(iso).toUTCString();
    if (httpDates.size >= 1000) httpDates.clear();
    httpDates.set(iso, date);
  }
  return date;
}

/**
 * The method a response's text names. HEAD is GET without the body (RFC 9110 §9.3.2), so its
 * messages say GET: a HEAD response then has exactly the headers, Content-Length included, of GET's.
 */
export function methodOf(request: FastifyRequest): string {
  return request.method === 'HEAD' ? 'GET' : request.method;
}

/**
 * Ends a 304 with neither Content-Type nor Content-Length: those describe the 200 the client
 * keeps (RFC 9110 §15.4.5), and clients such as undici (Node's fetch) fail on a 304 whose
 * Content-Length is not 0. Fastify answers an empty HEAD with `Content-Length: 0`, but leaves
 * a stream alone: an empty one keeps HEAD's headers exactly GET's.
 */
export function sendNotModified(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(304).send(request.method === 'HEAD' ? Readable.from([]) : undefined);
}

/** The strong ETag of a body that never changes while the process runs: a digest of its bytes. */
export function fixedEtag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * Sends a fixed body (a document built once, a file read once) with its strong ETag and
 * `Cache-Control: no-cache`, so clients revalidate it on every use and get 304 while it is unchanged.
 */
export function sendFixed(request: FastifyRequest, reply: FastifyReply, fixed: { etag: string; type: string; body: string | Buffer }): FastifyReply {
  reply.header('etag', fixed.etag).header('cache-control', 'no-cache');
  if (notModified(request, fixed.etag)) return sendNotModified(request, reply);
  return reply.code(200).type(fixed.type).send(fixed.body);
}
