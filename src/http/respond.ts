import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderPage } from '../ui/page.js';
import { mediaType, negotiate } from './negotiate.js';

/** Headers a representation response may carry. */
export interface RepresentationHeaders {
  etag?: string;
  location?: string;
  lastModified?: string;
  link?: string;
}

/**
 * Sends a representation in the negotiated media type: JSON and HAL get the same body, HTML
 * gets the browsable page of it. `Vary: Accept` keeps caches from mixing them up.
 */
export function sendRepresentation(request: FastifyRequest, reply: FastifyReply, status: number, body: Record<string, unknown>, headers: RepresentationHeaders = {}): FastifyReply {
  const rep = negotiate(request);
  reply.code(status).header('vary', 'Accept');
  if (headers.etag) reply.header('etag', rep === 'html' ? headers.etag.replace(/"$/, '.html"') : headers.etag);
  if (headers.location) reply.header('location', headers.location);
  if (headers.lastModified) reply.header('last-modified', new Date(headers.lastModified).toUTCString());
  if (headers.link) reply.header('link', headers.link);
  if (rep === 'html') return reply.type('text/html; charset=utf-8').send(renderPage(request.url, body));
  return reply.type(mediaType(rep)).send(JSON.stringify(body));
}
