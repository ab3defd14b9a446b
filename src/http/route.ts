import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessRule } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { HttpContext } from './context.js';
import type { OperationDoc } from './openapi/operation-doc.js';
import type { SchemaContext } from './openapi/schemas.js';

/** HTTP methods with a meaning on some route; any other method is 501 everywhere. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route handler of a running server. */
export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * What a route does, for access rules, body checks, Idempotency-Key and documentation: the six
 * record operations, `meta` (documents about the API), `log` (pages of an append-only log),
 * `action` (a POST that runs something) and `receive` (a delivery from another service).
 */
export type RouteKind = 'list' | 'create' | 'read' | 'replace' | 'patch' | 'delete' | 'meta' | 'log' | 'action' | 'receive';

/**
 * One row of the route table: what the server answers, and what OpenAPI says about it. Each
 * feature lists its own rows; `C` is the context its handlers need (the app's context has all).
 */
export interface Route<C extends HttpContext = HttpContext> {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  /** Builds the handler for a running server; the row itself needs no context (so OpenAPI needs no database). */
  handler: (ctx: C) => Handler;
  /** The operation's documentation; a row without one is described from its summary alone. */
  doc?: (ctx: SchemaContext) => OperationDoc;
  /** The resource the route serves, for resource routes. */
  resource?: ResourceDefinition;
  kind: RouteKind;
  /**
   * Who may call it, for routes that are not resource routes (those follow their resource's
   * `access`): an access rule, or `client` for OAuth endpoints that authenticate the client themselves.
   * Routes with neither are open and unmetered (root, docs, discovery documents).
   */
  access?: AccessRule | 'client';
  /** Another rule that lets a caller through too, to a narrower view the handler enforces (`webhooks:own`: one's own endpoints only). */
  alsoAccess?: AccessRule;
  /** Takes application/x-www-form-urlencoded (the OAuth endpoints), parsed by the handler. */
  form?: boolean;
  /** The response carries a secret shown once, so it is never stored for Idempotency-Key replay. */
  secretResponse?: boolean;
  /** The body types it takes, where they are not the method's usual ones (bodyTypesFor). */
  bodyTypes?: readonly string[];
  /** Takes any body as raw bytes, unparsed (webhook receivers verify signatures over the exact bytes). */
  rawBody?: boolean;
  /**
   * Whether the path names something (a webhook source), for a path that no GET route shares its
   * parameters with; throws a NotFoundError when it names nothing, so OPTIONS answers 404 as GET would.
   * (Other paths with parameters have their existence checked by a GET, see app/method-fallbacks.ts.)
   * On a catch-all path (`/*`) it also decides between 405 and 404 for the methods the path lacks.
   */
  exists?: (ctx: C) => (request: FastifyRequest) => void | Promise<void>;
}

/** A route as documentation needs it: the row without its handler; `kind` may be one not known yet. */
export type DocRoute = Omit<Route<never>, 'handler' | 'kind' | 'exists'> & { kind: string };

/** Gives each row the documentation `docs` holds for its operationId (rows it does not name keep theirs). */
export function documented<R extends { operationId: string; doc?: Route['doc'] }>(routes: R[], docs: Record<string, NonNullable<Route['doc']>>): R[] {
  return routes.map((r) => (Object.hasOwn(docs, r.operationId) ? { ...r, doc: docs[r.operationId] } : r));
}

/**
 * A POST that creates in a collection with no path parameter, which always exists: its If-Match and
 * If-None-Match are evaluated against that collection (see checkPostPreconditions).
 */
export function isCollectionPost(route: Pick<DocRoute, 'method' | 'kind' | 'path'>): boolean {
  return route.method === 'POST' && route.kind === 'create' && !route.path.includes(':');
}
