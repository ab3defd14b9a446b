import { etagOf, toPlain, type StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';

/** A HAL link object. */
export interface Link {
  href: string;
  title?: string;
  templated?: boolean;
}

/** The path of a record; a singular resource's one record is at the resource's own path. */
export function recordPath(resource: Pick<ResourceDefinition, 'name'> & { singular?: boolean }, id: string | number): string {
  if (resource.singular) return `/${resource.name}`;
  return `/${resource.name}/${encodeURIComponent(String(id))}`;
}

/**
 * The HAL representation of a record: its plain members (toPlain) plus `_links`: `self`, `collection`
 * (none for a singular resource, which is no collection) and one link per reference.
 */
export function halRecord(resource: ResourceDefinition, record: StoredRecord): Record<string, unknown> {
  const links: Record<string, Link> = { self: { href: recordPath(resource, record.id) } };
  if (!resource.singular) links.collection = { href: `/${resource.name}` };
  for (const f of resource.fields) {
    const target = record.data[f.name];
    if (f.type === 'reference' && target !== null && target !== undefined) links[f.name] = { href: `/${f.to}/${encodeURIComponent(String(target))}` };
  }
  const body = toPlain(record);
  body._links = links;
  return body;
}

/** What every response with a record sends, built once per record version (see recordRepresentation). */
export interface RecordRepresentation {
  body: Record<string, unknown>;
  /** `body` as JSON: the bytes of the JSON and HAL representations. */
  json: string;
  etag: string;
}

const built = new WeakMap<StoredRecord, RecordRepresentation>();

/**
 * The HAL body of a record, its JSON text and its ETag. A frozen record is one the store's cache
 * shares between requests until the next commit, so what is built from it is kept with it and a hot
 * record is serialized once per version, not once per request.
 */
export function recordRepresentation(resource: ResourceDefinition, record: StoredRecord): RecordRepresentation {
  let rep = built.get(record);
  if (rep) return rep;
  const body = halRecord(resource, record);
  rep = { body, json: JSON.stringify(body), etag: etagOf(record) };
  if (Object.isFrozen(record)) built.set(record, rep);
  return rep;
}

/** Links as a `Link` header (RFC 8288): `<href>; rel="name"`, comma-separated. */
export function linkHeader(links: Record<string, Link>): string {
  return Object.entries(links)
    .map(([rel, l]) => `<${l.href}>; rel="${rel}"`)
    .join(', ');
}
