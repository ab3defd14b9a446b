import type { FieldDefinition, ResourceDefinition } from './resource.js';

/**
 * Server-managed members that lists may filter and sort by, with the field type used to parse
 * query values. Their columns are named by each engine (`_created_at`, …) via `columnOf`.
 */
export function queryableField(resource: ResourceDefinition, name: string): FieldDefinition | undefined {
  if (name === 'id') return { name, type: resource.idType !== 'integer' ? 'string' : 'integer' };
  if (name === 'createdAt' || name === 'updatedAt') return { name, type: 'datetime' };
  const f = resource.fieldsByName.get(name);
  return f && f.type !== 'json' ? f : undefined;
}

/** The column that holds a queryable member. */
export function columnOf(name: string): string {
  return name === 'createdAt' ? '_created_at' : name === 'updatedAt' ? '_updated_at' : name;
}
