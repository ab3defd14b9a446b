import { fieldValueSchema } from '../config/field-value-schema.js';
import type { FieldDefinition, ResourceDefinition } from './resource.js';

/**
 * The JSON Schema (2020-12) of one field's value, as accepted in request bodies: the value schema
 * the config loader also checks defaults with, plus description, default and nullability.
 */
export function fieldSchema(field: FieldDefinition, target?: ResourceDefinition): Record<string, unknown> {
  const s: Record<string, unknown> = fieldValueSchema(field, target?.idType);
  if (field.description) s.description = field.description;
  if (field.default !== undefined) s.default = field.default;
  // Optional fields accept null: it is how merge patch removes a value.
  if (!field.required && typeof s.type === 'string') s.type = [s.type, 'null'];
  if (!field.required && Array.isArray(s.enum)) s.enum = [...s.enum, null];
  return s;
}

/**
 * The JSON Schema of a resource's writable fields: what POST and PUT bodies must match. A required
 * field with a `default` may be left out (the default is stored), so only required fields without
 * one are listed as `required`.
 */
export function bodySchema(resource: ResourceDefinition, all: ResourceDefinition[]): Record<string, unknown> {
  const byName = new Map(all.map((r) => [r.name, r]));
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(resource.fields.map((f) => [f.name, fieldSchema(f, f.to ? byName.get(f.to) : undefined)])),
    required: resource.fields.filter((f) => f.required && f.default === undefined).map((f) => f.name),
  };
}
