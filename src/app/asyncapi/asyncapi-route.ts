import type { FastifyReply, FastifyRequest } from 'fastify';
import { fixedEtag, sendFixed } from '../../http/respond.js';
import { catalogFor } from '../catalog/catalog-input.js';
import type { AppContext } from '../context.js';
import { PACKAGE } from '../openapi/document.js';
import { buildAsyncApi } from './asyncapi-document.js';

/** `GET /asyncapi.json`: the AsyncAPI 3.0 document of the event stream and the webhooks, built once from the config. */
export function serveAsyncApi(ctx: AppContext) {
  const body = JSON.stringify(buildAsyncApi(ctx.config, catalogFor(ctx.config, ctx.resources), PACKAGE.version));
  const fixed = { etag: fixedEtag(body), type: 'application/json', body };
  return async (request: FastifyRequest, reply: FastifyReply) => sendFixed(request, reply, fixed);
}
