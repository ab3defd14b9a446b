import { toPlain, type StoredRecord } from '../core/record.js';
import type { ResourceDefinition } from '../core/resource.js';

/** A HAL link object. */
export interface Link {
  href: string;
  title?: string;
  templated?: boolean;
}

/** The path of a record. */
export function recordPath(resource: Pick<ResourceDefinition, 'name'>, id: string | number): string {
  return `/${resource.name}/${encodeURIComponent(String(id))}`;
}

/** The HAL representation of a record: its fields plus `self`, `collection` and one link per reference. */
export function halRecord(resource: ResourceDefinition, record: StoredRecord): Record<string, unknown> {
  const links: Record<string, Link> = { self: { href: recordPath(resource, record.id) }, collection: { href: `/${resource.name}` } };
  for (const f of resource.fields) {
    const target = record.data[f.name];
    if (f.type === 'reference' && target !== null && target !== undefined) links[f.name] = { href: `/${f.to}/${encodeURIComponent(String(target))}` };
  }
  return { ...toPlain(record), _links: links };
}
