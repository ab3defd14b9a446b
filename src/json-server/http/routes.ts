import type { FastifyRequest } from 'fastify';
import { parseId } from '../../core/ids.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { idSchema } from '../../http/openapi/schemas.js';
import type { Route } from '../../http/route.js';
import { JSON_BODY_TYPES, PATCH_TYPES } from '../../http/body-types.js';
import { deleteRecord } from '../../resources/http/delete.js';
import { expansionsOf } from '../../resources/http/expand.js';
import { patchRecord } from '../../resources/http/patch.js';
import { notFound } from '../../resources/http/record-request.js';
import { replaceRecord } from '../../resources/http/replace.js';
import type { Filter } from '../../store/list-query.js';
import { createJsonServer } from './create.js';
import { listJsonServer } from './list.js';
import { JSON_SERVER_SHAPE } from './plain-shape.js';
import { jsonServerOperation } from './operations.js';
import { readJsonServer } from './read.js';

/** PATCH on the profile also takes plain JSON, as json-server front-ends send it (a shallow merge). */
const PATCH_BODY_TYPES = ['application/json', ...PATCH_TYPES] as const;

/**
 * The rows of the resources that answer as json-server does (`compat: json-server`): the six of a
 * collection and its records, json-server-shaped over Restwell's write path, and its nested lists
 * (`GET|POST /posts/{id}/comments`) for each collection that references it through one field.
 */
export function jsonServerRoutes(resources: readonly ResourceDefinition[]): Route[] {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const routes: Route[] = [];
  for (const r of resources) {
    if (r.compat !== 'json-server' || r.singular) continue;
    const collection = `/${r.name}`;
    const item = `/${r.name}/:id`;
    const name = capital(r.name);
    const rows: Route[] = [
      { method: 'GET', path: collection, operationId: `list${name}`, summary: `List ${r.name} (json-server's answer: a bare array)`, handler: (c) => listJsonServer(c, r), kind: 'list' },
      { method: 'POST', path: collection, operationId: `create${name}`, summary: `Create a ${r.name} record (at the body's id when it names one)`, handler: (c) => createJsonServer(c, r), kind: 'create', bodyTypes: JSON_BODY_TYPES },
      { method: 'GET', path: item, operationId: `get${name}`, summary: `Read a ${r.name} record`, handler: (c) => readJsonServer(c, r), kind: 'read' },
      { method: 'PUT', path: item, operationId: `put${name}`, summary: `Replace (or create at this id) a ${r.name} record`, handler: (c) => replaceRecord(c, r, JSON_SERVER_SHAPE), kind: 'replace' },
      { method: 'PATCH', path: item, operationId: `patch${name}`, summary: `Update part of a ${r.name} record (plain JSON: top-level members replace)`, handler: (c) => patchRecord(c, r, JSON_SERVER_SHAPE), kind: 'patch', bodyTypes: PATCH_BODY_TYPES },
      { method: 'DELETE', path: item, operationId: `delete${name}`, summary: `Delete a ${r.name} record (200 {})`, handler: (c) => deleteRecord(c, r, JSON_SERVER_SHAPE), kind: 'delete' },
    ];
    for (const row of rows) routes.push({ ...row, resource: r, doc: jsonServerOperation(row.kind as Parameters<typeof jsonServerOperation>[0], r) });
    for (const e of expansionsOf(r, byName).values()) {
      if (e.kind !== 'reverse' || e.name !== e.target.name || e.target.compat !== 'json-server') continue;
      const child = e.target;
      const path = `/${r.name}/:id/${child.name}`;
      const scope = (request: FastifyRequest): Filter => ({ field: e.field, op: 'eq', value: parentId(r, request) });
      const of = `${capital(child.name)}Of${capital(r.name)}`;
      const ofParent = nestedDoc(r);
      routes.push(
        { method: 'GET', path, operationId: `list${of}`, summary: `List the ${child.name} of a ${r.name} record (${child.name}?${e.field}={id})`, handler: (c) => listJsonServer(c, child, scope), kind: 'list', resource: child, doc: ofParent(jsonServerOperation('list', child)) },
        { method: 'POST', path, operationId: `create${of}`, summary: `Create a ${child.name} record of this ${r.name} record (${e.field} set to {id})`, handler: (c) => nestedCreate(c, child, e.field, r), kind: 'create', resource: child, bodyTypes: JSON_BODY_TYPES, doc: ofParent(jsonServerOperation('create', child)) },
      );
    }
  }
  return routes;
}

/** `POST /posts/{id}/comments`: a comment whose `postId` is the path's, whatever the body said (json-server's rule). */
function nestedCreate(ctx: Parameters<Route['handler']>[0], child: ResourceDefinition, field: string, parent: ResourceDefinition) {
  const create = createJsonServer(ctx, child);
  return (request: FastifyRequest, reply: Parameters<ReturnType<Route['handler']>>[1]) => {
    const body = request.body;
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) request.body = { ...body, [field]: parentId(parent, request) };
    return create(request, reply);
  };
}

/** A nested path's documentation: its `{id}` is the parent's. */
function nestedDoc(parent: ResourceDefinition) {
  return (doc: NonNullable<Route['doc']>): NonNullable<Route['doc']> =>
    (ctx) => {
      const { description, ...schema } = idSchema(parent);
      return { ...doc(ctx), pathParameters: { id: { ...schema, description: `The id of a ${parent.name} record (${String(description)})` } } };
    };
}

/** The parent's id in the path; one it cannot have names no record (404). */
function parentId(parent: ResourceDefinition, request: FastifyRequest) {
  const text = (request.params as { id: string }).id;
  const id = parseId(parent, text);
  if (id === undefined) throw notFound(parent, text);
  return id;
}

function capital(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
