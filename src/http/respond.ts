import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { renderPage } from '../ui/page.js';
import { representationEtag } from './conditional.js';
import { mediaType, negotiate } from './negotiate.js';

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
 * gets the browsable page of it. `Vary: Accept` keeps caches from mixing them up. A 304 goes
 * through here too, with the same headers as its 200: Node drops a 304's body on the wire, and
 * its Content-Length is the 200's (allowed by RFC 9110 §8.6), so GET and HEAD, 200 and 304,
 * all carry the same framing.
 */
export function sendRepresentation(request: FastifyRequest, reply: FastifyReply, status: number, body: Record<string, unknown>, headers: RepresentationHeaders = {}): FastifyReply {
  const rep = negotiate(request);
  addVary(reply.code(status), 'Accept');
  if (headers.etag) reply.header('etag', representationEtag(headers.etag, rep));
  if (headers.location) reply.header('location', headers.location);
  if (headers.lastModified) reply.header('last-modified', new Date(headers.lastModified).toUTCString());
  if (headers.link) reply.header('link', headers.link);
  if (rep === 'html') return reply.type('text/html; charset=utf-8').send(renderPage(request.url, body));
  return reply.type(mediaType(rep)).send(JSON.stringify(body));
}

/** Adds a request header name to `Vary`, keeping the names already there. */
export function addVary(reply: FastifyReply, name: string): FastifyReply {
  const current = reply.getHeader('vary');
  const names = current === undefined ? [] : String(current).split(',').map((n) => n.trim());
  if (names.some((n) => n === '*' || n.toLowerCase() === name.toLowerCase())) return reply;
  return reply.header('vary', [...names, name].join(', '));
}

/**
 * The method a response's text names. HEAD is GET without the body (RFC 9110 §9.3.2), so its
 * messages say GET: a HEAD response then has exactly the headers, Content-Length included, of GET's.
 */
export function methodOf(request: FastifyRequest): string {
  return request.method === 'HEAD' ? 'GET' : request.method;
}

/**
 * `onSend` for every response: a 304 carries no Content-Type (representation metadata it should not
 * repeat, RFC 9110 §15.4.5), though it keeps the Content-Length of the 200 it stands for.
 */
export const notModifiedWithoutType: onSendHookHandler = (_request, reply, payload, done) => {
  if (reply.statusCode === 304) reply.removeHeader('content-type');
  done(null, payload);
};
