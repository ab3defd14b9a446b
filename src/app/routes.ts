import { authRoutes } from '../auth/http/routes.js';
import type { ResourceDefinition } from '../core/resource.js';
import { eventRoutes } from '../events/http/routes.js';
import { problemDoc } from '../http/problem-doc.js';
import { documented, type Route } from '../http/route.js';
import { jsonServerRoutes } from '../json-server/http/routes.js';
import { JSON_SERVER_QUERY } from '../json-server/query/json-server-params.js';
import { resourceRoutes } from '../resources/http/routes.js';
import { batchRoutes } from '../resources/http/batch-operations.js';
import { webhookRoutes } from '../webhooks/inbound/http/routes.js';
import { webhookEndpointRoutes } from '../webhooks/outbound/http/routes.js';
import type { AppContext } from './context.js';
import { consoleRoutes } from './console-routes.js';
import { serveAsyncApi } from './asyncapi/asyncapi-route.js';
import { CATALOG_OPERATIONS } from './catalog/catalog-operations.js';
import { serveEventTypes } from './catalog/event-types-route.js';
import { serveDocs, serveOpenApi } from './openapi/handler.js';
import { META_OPERATIONS } from './openapi/meta-operations.js';
import { rootHandler, staticSiteRoutes } from './static-routes.js';
import { opsRoutes } from './ops/ops-routes.js';
import type { RestwellConfig } from '../config/types.js';

/**
 * THE route table: every URL the server answers, in one place. Read this first. Each feature
 * lists its own rows (handlers and documentation beside them); this is where they meet.
 * `GET` routes also answer `HEAD`; every path answers `OPTIONS`, and other methods get 405 + Allow.
 * `config` decides the rows that depend on it (who may read `/metrics`, or whether it exists; the
 * front-end's files of `server.static`, and whether `GET /` gives browsers its index.html);
 * without it they are as the defaults make them.
 */
export function routeTable(resourceList: Iterable<ResourceDefinition>, config?: Pick<RestwellConfig, 'server'>): Route<AppContext>[] {
  const resources = [...resourceList];
  return [
    ...documented<Route<AppContext>>(
      [
        { method: 'GET', path: '/', operationId: 'getRoot', summary: 'API root: links to every collection and to the docs', handler: rootHandler(config?.server.static), kind: 'meta' },
        { method: 'GET', path: '/problems/:code', operationId: 'getProblemType', summary: 'Documentation of one problem type', handler: problemDoc, kind: 'meta' },
        { method: 'GET', path: '/openapi.json', operationId: 'getOpenApi', summary: 'This API described in OpenAPI 3.1', handler: (c) => serveOpenApi(c, routeTable(c.resources.values(), c.config)), kind: 'meta' },
        { method: 'GET', path: '/docs', operationId: 'getDocs', summary: 'Readable API documentation (HTML)', handler: (c) => serveDocs(c, routeTable(c.resources.values(), c.config)), kind: 'meta' },
        { method: 'GET', path: '/event-types', operationId: 'getEventTypes', summary: 'Every event type the API emits, with the JSON Schema of its payload and an example', handler: serveEventTypes, kind: 'meta' },
        { method: 'GET', path: '/asyncapi.json', operationId: 'getAsyncApi', summary: 'The event stream and the webhooks described in AsyncAPI 3.0', handler: serveAsyncApi, kind: 'meta' },
      ],
      { ...META_OPERATIONS, ...CATALOG_OPERATIONS },
    ),
    ...consoleRoutes(),
    ...opsRoutes(config),
    ...eventRoutes(),
    ...authRoutes(),
    ...webhookRoutes(),
    ...webhookEndpointRoutes(),
    ...batchRoutes(),
    ...resourceRoutes(resources.filter((r) => r.compat !== 'json-server'), JSON_SERVER_QUERY),
    ...jsonServerRoutes(resources),
    // The front-end's files (server.static): a catch-all, so each row above wins over a file of its path.
    ...staticSiteRoutes(config?.server.static),
  ];
}
