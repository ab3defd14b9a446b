import type { FieldConfig, IdType } from './types.js';
import { STRING_ID_PATTERN } from './string-id.js';

/**
 * The JSON Schema (2020-12) of a field's value: its type with its constraints (format, enum
 * `values`, min/max, minLength/maxLength, pattern). The API validates request bodies with it (see
 * core/field-schema.ts, which adds nullability, the default and the description), and the config
 * loader validates each field's `default` with it, so a default the API would refuse is refused at
 * start-up. `targetIdType` is the id type of a reference's target resource.
 */
export function fieldValueSchema(field: FieldConfig, targetIdType?: IdType): Record<string, unknown> {
  switch (field.type) {
    case 'string':
      return { type: 'string', ...pick(field, ['maxLength', 'minLength', 'pattern']) };
    case 'integer':
    case 'number':
      return { type: field.type, ...pick(field, ['minimum', 'maximum']) };
    case 'boolean':
      return { type: 'boolean' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'enum':
      return { type: 'string', enum: field.values };
    case 'reference':
      if (targetIdType === 'uuid') return { type: 'string', format: 'uuid' };
      if (targetIdType === 'string') return { type: 'string', pattern: STRING_ID_PATTERN };
      return { type: 'integer', minimum: 1 };
    case 'json':
      return {};
  }
}

function pick(o: object, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => (o as any)[k] !== undefined).map((k) => [k, (o as any)[k]]));
}
