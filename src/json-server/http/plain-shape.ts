import type { FastifyReply, FastifyRequest } from 'fastify';
import { decide, rulesFor } from '../../auth/access.js';
import { toPlain, type StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { halRecord, linkHeader, type Link } from '../../http/hal.js';
import { httpDateOf, type RepresentationHeaders } from '../../http/respond.js';
import type { RecordShape } from '../../resources/http/record-shape.js';

/** Members the server sets that a json-server front-end sends back as it read them: dropped from write bodies. */
const SERVER_SET = ['version', 'createdAt', 'updatedAt'];

/**
 * A record as json-server serves it: its id and fields, plus Restwell's version, createdAt and
 * updatedAt; a singular resource's object without the id it is stored under (its clients have none).
 */
export function plainRecord(resource: ResourceDefinition, record: StoredRecord): Record<string, unknown> {
  const plain = toPlain(record);
  if (resource.singular) delete plain.id;
  return plain;
}

/** The JSON of each frozen (cached, shared) record's plain body, built once per version. */
const plainJson = new WeakMap<StoredRecord, string>();

/** `plainRecord(resource, record)` as JSON; a record the store's cache shares is serialized once. */
export function plainJsonOf(resource: ResourceDefinition, record: StoredRecord): string {
  let json = plainJson.get(record);
  if (json === undefined) {
    json = JSON.stringify(plainRecord(resource, record));
    if (Object.isFrozen(record)) plainJson.set(record, json);
  }
  return json;
}

/** The `Link` header of each frozen (cached, shared) record, built once per version. */
const links = new WeakMap<StoredRecord, string>();

/** A record's links (self, collection, each reference) as a `Link` header: the HAL links, moved out of the body. */
export function recordLinkHeader(resource: ResourceDefinition, record: StoredRecord): string {
  let header = links.get(record);
  if (header === undefined) {
    header = linkHeader(halRecord(resource, record)._links as Record<string, Link>);
    if (Object.isFrozen(record)) links.set(record, header);
  }
  return header;
}


/**
 * Sends a JSON body as json-server does: `application/json` whatever the Accept header, with the
 * given validators, Location and Link.
 */
export function sendJson(reply: FastifyReply, status: number, json: string, headers: RepresentationHeaders = {}): FastifyReply {
  if (headers.etag) reply.header('etag', headers.etag);
  if (headers.location) reply.header('location', headers.location);
  if (headers.lastModified) reply.header('last-modified', httpDateOf(headers.lastModified));
  if (headers.link) reply.header('link', headers.link);
  return reply.code(status).type('application/json; charset=utf-8').send(json);
}

/**
 * json-server's record shape over Restwell's write path: bare records, the server-set members a
 * front-end echoes ignored, PATCH in plain JSON as json-server's shallow merge (top-level members
 * replace, as `Object.assign`), and DELETE answered 200 `{}`, which front-ends parse as JSON, taking
 * the records that depend on the deleted one with it.
 */
export const JSON_SERVER_SHAPE: RecordShape = {
  body: plainRecord,
  send(_request: FastifyRequest, reply, status, body, headers) {
    // As json-server, for scripts of other origins that read where the record was created.
    if (headers.location) reply.header('access-control-expose-headers', 'Location');
    return sendJson(reply, status, JSON.stringify(body), headers);
  },
  input(body) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    const input = { ...(body as Record<string, unknown>) };
    for (const key of SERVER_SET) delete input[key];
    return input;
  },
  deleted: (reply) => sendJson(reply, 200, '{}'),
  // json-server deletes the records that reference a deleted one; so does this, where the caller
  // may delete them too (an owner rule or a missing scope leaves them, and the delete is a 409).
  dependents: (request, resources) => (resource) =>
    [...resources.values()].flatMap((child) => {
      const may = decide(rulesFor(child, 'delete'), request.principal);
      if (!may.allow || may.owner !== undefined) return [];
      return child.fields.filter((f) => f.type === 'reference' && f.to === resource.name).map((f) => ({ resource: child, field: f.name }));
    }),
  plainPatch(current, body) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
    return { ...current, ...(body as Record<string, unknown>) };
  },
};
