import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderDocsPage } from '../../ui/docs-page.js';
import type { AppContext } from '../context.js';
import { fixedEtag, sendFixed } from '../../http/respond.js';
import { buildOpenApi } from './document.js';
import type { DocRoute } from '../../http/route.js';

/** A fixed body served with a strong ETag, so clients and caches revalidate it cheaply (304). */
function fixedBody(type: string, body: string) {
  const fixed = { etag: fixedEtag(body), type, body };
  return async (request: FastifyRequest, reply: FastifyReply) => sendFixed(request, reply, fixed);
}

/** `GET /openapi.json`: the OpenAPI 3.1 document, built once from the config and the route table. */
export function serveOpenApi(ctx: AppContext, routes: DocRoute[]) {
  return fixedBody('application/json', JSON.stringify(buildOpenApi({ config: ctx.config, routes })));
}

/** `GET /docs`: the same document as one readable HTML page (no scripts, nothing fetched). */
export function serveDocs(ctx: AppContext, routes: DocRoute[]) {
  return fixedBody('text/html; charset=utf-8', renderDocsPage(buildOpenApi({ config: ctx.config, routes })));
}
