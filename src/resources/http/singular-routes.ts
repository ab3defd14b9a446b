import type { ResourceDefinition } from '../../core/resource.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import type { SchemaContext } from '../../http/openapi/schemas.js';
import type { Route } from '../../http/route.js';
import { deleteRecord } from './delete.js';
import { patchRecord } from './patch.js';
import type { QueryDialect } from './query-dialect.js';
import { readRecord } from './read.js';
import { RECORD_OPERATIONS } from './record-operations.js';
import { replaceRecord } from './replace.js';

/** What each operation does to a singular resource, in place of the record operation's description. */
const DESCRIPTIONS: Record<'read' | 'replace' | 'patch' | 'delete', (name: string) => string> = {
  read: (name) =>
    `The ${name} object (its one record, id 1) with its ETag and Last-Modified; 404 until it is set. If-None-Match or If-Modified-Since ` +
    'make it 304 when unchanged, If-Match or If-Unmodified-Since 412 when changed. HEAD returns the same headers without a body.',
  replace: (name) =>
    `Sets the ${name} object: creates it (201) or replaces it whole (200). Send If-Match with the ETag you read to avoid ` +
    'overwriting a change you have not seen; If-None-Match: * makes it create-only.',
  patch: (name) =>
    `Changes part of the ${name} object, atomically: a JSON Merge Patch (RFC 7396) or a JSON Patch (RFC 6902), chosen by Content-Type; ` +
    '404 until it is set. The result is validated like a PUT body.',
  delete: (name) => `Unsets the ${name} object (a GET is then 404 until a PUT sets it again); deleting it again is 404. If-Match makes it conditional.`,
};

/** A record operation's documentation, told of the one object at `/{name}` (which has no id to be invalid). */
function singularDoc(kind: keyof typeof DESCRIPTIONS, r: ResourceDefinition, ctx: SchemaContext): OperationDoc {
  const doc = RECORD_OPERATIONS[kind]!(r, ctx);
  return { ...doc, description: DESCRIPTIONS[kind](r.name), problems: doc.problems.filter((p) => p !== 'invalid-id') };
}

/**
 * The rows of a singular resource (config `singular: true`): one object at `/{name}`, read, set,
 * patched and unset with the record handlers (its path names its one record, see recordId). No
 * list and no POST: there is nothing to add to, so POST is 405 with Allow.
 */
export function singularRoutes(r: ResourceDefinition, dialect?: QueryDialect): Route[] {
  const path = `/${r.name}`;
  const name = r.name.charAt(0).toUpperCase() + r.name.slice(1);
  const rows: Array<Omit<Route, 'resource' | 'doc'> & { kind: keyof typeof DESCRIPTIONS }> = [
    { method: 'GET', path, operationId: `get${name}`, summary: `Read the ${r.name} object`, handler: (c) => readRecord(c, r, dialect), kind: 'read' },
    { method: 'PUT', path, operationId: `put${name}`, summary: `Set (create or replace) the ${r.name} object`, handler: (c) => replaceRecord(c, r), kind: 'replace' },
    { method: 'PATCH', path, operationId: `patch${name}`, summary: `Update part of the ${r.name} object`, handler: (c) => patchRecord(c, r), kind: 'patch' },
    { method: 'DELETE', path, operationId: `delete${name}`, summary: `Unset the ${r.name} object`, handler: (c) => deleteRecord(c, r), kind: 'delete' },
  ];
  return rows.map((row) => ({ ...row, resource: r, doc: (ctx: SchemaContext) => singularDoc(row.kind, r, ctx) }));
}
