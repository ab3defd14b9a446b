import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceDefinition } from '../core/resource.js';
import type { AppContext } from './context.js';
import { problemDoc } from '../http/problem-doc.js';
import { createRecord } from '../resources/http/create.js';
import { deleteRecord } from '../resources/http/delete.js';
import { listRecords } from '../resources/http/list.js';
import { patchRecord } from '../resources/http/patch.js';
import { readRecord } from '../resources/http/read.js';
import { replaceRecord } from '../resources/http/replace.js';
import { apiRoot } from './root.js';
import { listEvents, readEvent } from '../events/http/events.js';
import { serveDocs, serveOpenApi } from './openapi/handler.js';
import { authRoutes } from '../auth/http/routes.js';
import type { AccessRule } from '../config/types.js';
import { webhookRoutes } from '../webhooks/inbound/http/routes.js';

/** HTTP methods with a meaning on some route; any other method is 501 everywhere. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
/** Builds a route's handler for a running server; the table itself needs no context (so OpenAPI needs no database). */
export type HandlerFactory = (ctx: AppContext) => Handler;

/** One row of the route table: what the server answers, and what OpenAPI says about it. */
export interface Route {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  handler: HandlerFactory;
  /** The resource the route serves, for resource routes. */
  resource?: ResourceDefinition;
  /** Kind of operation, for documentation and access rules. */
  kind: 'list' | 'create' | 'read' | 'replace' | 'patch' | 'delete' | 'meta' | 'events' | 'webhook-receive' | 'webhook-inbox';
  /**
   * Who may call it, for routes that are not resource routes (those follow their resource's
   * `access`): an access rule, or `client` for OAuth endpoints that authenticate the client themselves.
   * Routes with neither are open and unmetered (root, docs, discovery documents).
   */
  access?: AccessRule | 'client';
  /** Takes application/x-www-form-urlencoded (the OAuth endpoints), parsed by the handler. */
  form?: boolean;
  /** The response carries a secret shown once, so it is never stored for Idempotency-Key replay. */
  secretResponse?: boolean;
  /** Takes any body as raw bytes, unparsed (webhook receivers verify signatures over the exact bytes). */
  rawBody?: boolean;
}

/**
 * THE route table: every URL the server answers, in one place. Read this first.
 * `GET` routes also answer `HEAD`; every path answers `OPTIONS`, and other methods get 405 + Allow.
 */
export function routeTable(resources: Iterable<ResourceDefinition>): Route[] {
  const routes: Route[] = [
    { method: 'GET', path: '/', operationId: 'getRoot', summary: 'API root: links to every collection and to the docs', handler: apiRoot, kind: 'meta' },
    { method: 'GET', path: '/events', operationId: 'listEvents', summary: 'The event log: every change, oldest first', handler: listEvents, kind: 'events', access: ['events:read'] },
    { method: 'GET', path: '/events/:id', operationId: 'getEvent', summary: 'Read one event', handler: readEvent, kind: 'events', access: ['events:read'] },
    { method: 'GET', path: '/problems/:code', operationId: 'getProblemType', summary: 'Documentation of one problem type', handler: problemDoc, kind: 'meta' },
    { method: 'GET', path: '/openapi.json', operationId: 'getOpenApi', summary: 'This API described in OpenAPI 3.1', handler: (c) => serveOpenApi(c, routeTable(c.resources.values())), kind: 'meta' },
    { method: 'GET', path: '/docs', operationId: 'getDocs', summary: 'Readable API documentation (HTML)', handler: (c) => serveDocs(c, routeTable(c.resources.values())), kind: 'meta' },
    ...authRoutes(),
    ...webhookRoutes(),
  ];
  for (const r of resources) {
    const collection = `/${r.name}`;
    const item = `/${r.name}/:id`;
    const name = r.name.charAt(0).toUpperCase() + r.name.slice(1);
    routes.push(
      { method: 'GET', path: collection, operationId: `list${name}`, summary: `List ${r.name}`, handler: (c) => listRecords(c, r), resource: r, kind: 'list' },
      { method: 'POST', path: collection, operationId: `create${name}`, summary: `Create a ${r.name} record`, handler: (c) => createRecord(c, r), resource: r, kind: 'create' },
      { method: 'GET', path: item, operationId: `get${name}`, summary: `Read a ${r.name} record`, handler: (c) => readRecord(c, r), resource: r, kind: 'read' },
      { method: 'PUT', path: item, operationId: `put${name}`, summary: `Replace (or create at this id) a ${r.name} record`, handler: (c) => replaceRecord(c, r), resource: r, kind: 'replace' },
      { method: 'PATCH', path: item, operationId: `patch${name}`, summary: `Update part of a ${r.name} record`, handler: (c) => patchRecord(c, r), resource: r, kind: 'patch' },
      { method: 'DELETE', path: item, operationId: `delete${name}`, summary: `Delete a ${r.name} record`, handler: (c) => deleteRecord(c, r), resource: r, kind: 'delete' },
    );
  }
  return routes;
}
