import type { FastifyRequest } from 'fastify';
import { readView } from '../../auth/access.js';
import { BadRequestError, NotFoundError } from '../../core/errors.js';
import { idShape, parseId } from '../../core/ids.js';
import type { RecordId, StoredRecord } from '../../core/record.js';
import { SINGULAR_ID, type ResourceDefinition } from '../../core/resource.js';
import type { ReadableRecords } from '../../store/store.js';
import { mayReadOwned } from '../../store/write-errors.js';

/**
 * The record id named by `/{collection}/{id}`. An id that cannot exist is a 404 for reads and
 * deletes (nothing is there), and a 400 for PUT, which would create it. A singular resource's
 * path (`/{name}`) names its one record, whose id is fixed, so the record handlers serve it as they are.
 */
export function recordId(request: FastifyRequest, resource: ResourceDefinition, forCreate = false): RecordId {
  if (resource.singular) return SINGULAR_ID;
  const text = (request.params as { id: string }).id;
  const id = parseId(resource, text);
  if (id !== undefined) return id;
  if (forCreate) throw new BadRequestError('invalid-id', `"${text}" cannot be an id of ${resource.name}: ids are ${idShape(resource)}`);
  throw notFound(resource, text);
}

/** The 404 for a record that does not exist. */
export function notFound(resource: ResourceDefinition, id: RecordId | string): NotFoundError {
  if (resource.singular) return new NotFoundError(`${resource.name} has not been set yet; PUT /${resource.name} sets it`);
  return new NotFoundError(`no ${resource.name} record has id ${id}`);
}

/**
 * The record if this request may see it: under an `owner` access rule (`request.visibleOwner`),
 * other subjects' records do not exist for it, so they are 404 like records that never were.
 */
export function visible(request: Pick<FastifyRequest, 'visibleOwner'>, record: StoredRecord | undefined): StoredRecord | undefined {
  return record && (request.visibleOwner === undefined || record.owner === request.visibleOwner) ? record : undefined;
}

/**
 * True when this request may read `record` of `resource` (its read rule, owner rules included).
 * A write's answer carries the record only then: write access must not leak read access.
 */
export function mayRead(request: Pick<FastifyRequest, 'principal'>, resource: ResourceDefinition, record: StoredRecord | undefined): boolean {
  return mayReadOwned(readView(resource, request.principal), record?.owner ?? null);
}

/** What this request may read of each resource, for the store to keep a refused write from naming more (WriteOptions.readable). */
export function readableBy(request: Pick<FastifyRequest, 'principal'>, resources: ReadonlyMap<string, ResourceDefinition>): ReadableRecords {
  return (name) => {
    const resource = resources.get(name);
    return resource ? readView(resource, request.principal) : false;
  };
}
