import type { FastifyReply, FastifyRequest } from 'fastify';
import { HTML_CSP } from '../ui/page-assets.js';
import type { PageInput } from '../ui/page.js';
import { renderPage } from '../ui/page.js';
import { renderProblemPage } from '../ui/problem-page.js';
import { negotiate } from './negotiate.js';
import { MAX_LIMIT } from './page-size.js';

/**
 * Sends a rendered HTML page with the headers every page carries: its Content-Security-Policy
 * (the page's own inline script and style only, see ui/page-assets.ts) and nosniff.
 */
export function sendHtml(reply: FastifyReply, html: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('content-security-policy', HTML_CSP).header('x-content-type-options', 'nosniff').send(html);
}

/**
 * The browsable page of a representation. A route of a resource's collection (`/{name}`) or record
 * (`/{name}/:id`, or `/{name}` of a singular resource) gets that resource's forms; any other gets the links and the data.
 */
export function sendPage(request: FastifyRequest, reply: FastifyReply, base: string, body: Record<string, unknown>, etag?: string): FastifyReply {
  return sendHtml(reply, renderPage(pageInput(request, base, body, etag)));
}

function pageInput(request: FastifyRequest, base: string, body: Record<string, unknown>, etag?: string): PageInput {
  const input: PageInput = { title: request.url, body, base };
  const resources = request.server.restwell?.resources;
  const route = request.routeOptions.url;
  const m = route ? /^\/([^/:]+)(\/:id)?$/.exec(route) : null;
  const resource = m ? resources?.get(m[1]) : undefined;
  if (!resource) return input;
  return {
    ...input,
    resource,
    // A singular resource's path names its one record, not a collection.
    kind: m![2] || resource.singular ? 'record' : 'collection',
    maxLimit: MAX_LIMIT,
    etag,
    idTypeOf: (field) => resources!.get(field.to ?? '')?.idType ?? 'integer',
  };
}

/** True when the client prefers text/html (a browser), so a problem goes out as a readable page. */
export function prefersHtml(request: Pick<FastifyRequest, 'headers'>): boolean {
  return negotiate(request) === 'html';
}

/** Sends a problem as its readable HTML page (`base` is this server's base URL), status and headers already set on `reply`. */
export function sendProblemPage(request: FastifyRequest, reply: FastifyReply, base: string, problem: Record<string, unknown>): FastifyReply {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  return sendHtml(reply, renderProblemPage(problem, base, method));
}
