import type { FastifyRequest } from 'fastify';
import { parseId } from '../../core/ids.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { idSchema } from '../../http/openapi/schemas.js';
import type { Route } from '../../http/route.js';
import { JSON_BODY_TYPES, PATCH_TYPES } from '../../http/body-types.js';
import { negotiate } from '../../http/negotiate.js';
import { createRecord } from '../../resources/http/create.js';
import { deleteRecord } from '../../resources/http/delete.js';
import { expansionsOf } from '../../resources/http/expand.js';
import { listRecords } from '../../resources/http/list.js';
import { patchRecord } from '../../resources/http/patch.js';
import { readRecord } from '../../resources/http/read.js';
import { notFound } from '../../resources/http/record-request.js';
import { replaceRecord } from '../../resources/http/replace.js';
import type { Filter } from '../../store/list-query.js';
import { JSON_SERVER_QUERY } from '../query/json-server-params.js';
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
    if (r.compat !== 'json-server') continue;
    if (r.singular) {
      routes.push(...singularRows(r));
      continue;
    }
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
    for (const row of rows) routes.push(halToo({ ...row, resource: r, doc: jsonServerOperation(row.kind as Parameters<typeof jsonServerOperation>[0], r) }));
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

/**
 * A singular resource's object at `/{name}`, as json-server serves `"profile": {…}`: GET, PUT, PATCH,
 * and POST, which sets it and answers 201 as json-server does. json-server has no DELETE there,
 * so neither has this (405 with Allow).
 */
function singularRows(r: ResourceDefinition): Route[] {
  const path = `/${r.name}`;
  const name = capital(r.name);
  // POST sets the object whether or not it was there: a PUT whose answer is always json-server's 201.
  const set: typeof JSON_SERVER_SHAPE = { ...JSON_SERVER_SHAPE, send: (request, reply, _status, body, headers) => JSON_SERVER_SHAPE.send(request, reply, 201, body, { ...headers, location: path }) };
  const rows: Route[] = [
    { method: 'GET', path, operationId: `get${name}`, summary: `Read the ${r.name} object`, handler: (c) => readJsonServer(c, r), kind: 'read', doc: jsonServerOperation('read', r) },
    { method: 'PUT', path, operationId: `put${name}`, summary: `Replace the ${r.name} object (or set it, 201)`, handler: (c) => replaceRecord(c, r, JSON_SERVER_SHAPE), kind: 'replace', doc: jsonServerOperation('replace', r) },
    { method: 'PATCH', path, operationId: `patch${name}`, summary: `Update part of the ${r.name} object (plain JSON: top-level members replace)`, handler: (c) => patchRecord(c, r, JSON_SERVER_SHAPE), kind: 'patch', bodyTypes: PATCH_BODY_TYPES, doc: jsonServerOperation('patch', r) },
    // Sets rather than adds, so it passes the rules of a PUT (update and create), not only create's.
    { method: 'POST', path, operationId: `set${name}`, summary: `Set the ${r.name} object (201, as json-server answers)`, handler: (c) => replaceRecord(c, r, set), kind: 'replace', bodyTypes: JSON_BODY_TYPES, doc: jsonServerOperation('set', r) },
  ];
  return rows.map((row) => (row.method === 'POST' ? { ...row, resource: r } : halToo({ ...row, resource: r })));
}

/** Restwell's own handler of each record operation. */
const HAL_HANDLERS: Record<string, (ctx: Parameters<Route['handler']>[0], r: ResourceDefinition) => ReturnType<Route['handler']>> = {
  list: (c, r) => listRecords(c, r, JSON_SERVER_QUERY),
  create: createRecord,
  read: (c, r) => readRecord(c, r, JSON_SERVER_QUERY),
  replace: replaceRecord,
  patch: patchRecord,
  delete: deleteRecord,
};

/**
 * A row that answers as json-server does, and as Restwell's HAL API to a client that asks for
 * `application/hal+json` (the console, a HAL client): one resource, both APIs, chosen by Accept.
 */
function halToo(row: Route): Route {
  const hal = HAL_HANDLERS[row.kind]!;
  return {
    ...row,
    handler: (c) => {
      const jsonServer = row.handler(c);
      const restwell = hal(c, row.resource!);
      return (request, reply) => (negotiate(request) === 'hal' ? restwell(request, reply) : jsonServer(request, reply));
    },
  };
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
