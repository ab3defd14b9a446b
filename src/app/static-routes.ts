import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../core/errors.js';
import { prefersHtml } from '../http/html-response.js';
import type { Handler, Route } from '../http/route.js';
import { addVary } from '../http/vary.js';
import type { AppContext } from './context.js';
import { apiRoot } from './root.js';
import { staticSite } from './static-site.js';

/** The path of a request without its query, undecoded: the static site decodes it segment by segment. */
function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

/**
 * The row of a front-end served beside the API from `dir` (`server.static`): a catch-all, so every
 * other row of the table wins over a file of the same path (find-my-way tries static and
 * parametric paths before a wildcard). OPTIONS and other methods answer 404 where no file is.
 */
export function staticSiteRoutes(dir: string | undefined): Route<AppContext>[] {
  if (!dir) return [];
  return [
    {
      method: 'GET',
      path: '/*',
      operationId: 'getStaticFile',
      summary: 'A file of the front-end served beside the API (server.static)',
      kind: 'meta',
      handler: () => {
        const site = staticSite(dir);
        return async (request, reply) => site.serve(request, reply, pathOf(request));
      },
      exists: () => {
        const site = staticSite(dir);
        return async (request) => {
          const found = await site.find(pathOf(request));
          if (found.kind === 'none') throw new NotFoundError(found.detail);
        };
      },
    },
  ];
}

/**
 * `GET /` with a front-end: a browser (Accept prefers text/html) gets the folder's index.html when
 * there is one; every other client, and browsers when there is none, the API root as without it.
 */
export function rootHandler(dir: string | undefined): (ctx: AppContext) => Handler {
  if (!dir) return apiRoot;
  return (ctx) => {
    const api = apiRoot(ctx);
    const site = staticSite(dir);
    return async (request: FastifyRequest, reply: FastifyReply) => {
      if (prefersHtml(request)) {
        const found = await site.find('/');
        if (found.kind === 'file') return site.send(request, addVary(reply, 'Accept'), found.path);
      }
      return api(request, reply);
    };
  };
}
