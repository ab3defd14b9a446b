import type { ErrorObject } from 'ajv/dist/2020.js';
import { configAjv as ajv } from './ajv.js';
import { fieldValueSchema } from './field-value-schema.js';
import type { FieldConfig, FieldType, IdType, ResourceConfig } from './types.js';

/** Field keys that constrain a value, and the types each one applies to. */
const APPLIES_TO: Record<string, FieldType[]> = {
  maxLength: ['string'],
  minLength: ['string'],
  pattern: ['string'],
  minimum: ['integer', 'number'],
  maximum: ['integer', 'number'],
  values: ['enum'],
  to: ['reference'],
};

/**
 * What the config schema cannot say about the fields of `resources` (already schema-valid), one
 * message per problem naming its key path: a constraint the field's type ignores, a `pattern` that
 * is no valid regular expression (as the API compiles it: with the `u` flag), `minimum > maximum`,
 * `minLength > maxLength`, a `default` on a `unique` field, and a `default` the API itself would
 * refuse in a request body (wrong type, not an enum value, out of range, too long or short, not
 * matching the pattern, not a date-time…).
 */
export function checkFields(resources: Record<string, ResourceConfig>): string[] {
  const problems: string[] = [];
  for (const [rname, resource] of Object.entries(resources)) {
    for (const [fname, field] of Object.entries(resource.fields ?? {})) {
      const at = `resources.${rname}.fields.${fname}`;
      const before = problems.length;
      problems.push(...checkField(at, field));
      // A default is checked only against constraints that make sense: a broken pattern would not compile.
      if (problems.length === before && field.default !== undefined) {
        const targetIdType = field.type === 'reference' && field.to ? (resources[field.to]?.id ?? 'integer') : undefined;
        problems.push(...checkDefault(at, field, targetIdType));
      }
    }
  }
  return problems;
}

function checkField(at: string, field: FieldConfig): string[] {
  const problems: string[] = [];
  for (const [key, types] of Object.entries(APPLIES_TO)) {
    if ((field as unknown as Record<string, unknown>)[key] !== undefined && !types.includes(field.type)) {
      problems.push(`${at}.${key}: does not apply to a field of type ${field.type} (only to ${types.join(' and ')}); remove it or change the type`);
    }
  }
  if (field.pattern !== undefined) {
    try {
      new RegExp(field.pattern, 'u');
    } catch (err) {
      problems.push(`${at}.pattern: is not a valid regular expression (Unicode mode, as values are checked): ${(err as Error).message}`);
    }
  }
  if (field.minimum !== undefined && field.maximum !== undefined && field.minimum > field.maximum) {
    problems.push(`${at}.minimum: ${field.minimum} is greater than maximum (${field.maximum}), so no value could be valid`);
  }
  if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
    problems.push(`${at}.minLength: ${field.minLength} is greater than maxLength (${field.maxLength}), so no value could be valid`);
  }
  if (field.unique && field.default !== undefined) {
    problems.push(`${at}.default: a unique field cannot have a default: only one record could ever hold it, and the next one that leaves the field out would be refused (409)`);
  }
  return problems;
}

function checkDefault(at: string, field: FieldConfig, targetIdType?: IdType): string[] {
  const value = field.default;
  // null is "no value": allowed for an optional field (the same as no default), never for a required one.
  if (value === null) return field.required ? [`${at}.default: cannot be null on a required field; remove it or give a value`] : [];
  const validate = ajv.compile(fieldValueSchema(field, targetIdType));
  const shown = JSON.stringify(value);
  if (!validate(value)) return [`${at}.default: ${shown} ${describe(validate.errors?.[0])}`];
  if ((field.type === 'integer' || field.type === 'reference') && typeof value === 'number' && !Number.isSafeInteger(value)) {
    return [`${at}.default: ${shown} must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`];
  }
  if (typeof value === 'string' && value.includes('\u0000')) return [`${at}.default: must not contain the NUL character (\\u0000)`];
  return [];
}

/** An ajv error about a default, worded as the API words it for request bodies. */
function describe(e: ErrorObject | undefined): string {
  const p = (e?.params ?? {}) as Record<string, any>;
  switch (e?.keyword) {
    case 'type':
      return `does not fit the field's type: must be ${p.type === 'integer' ? 'an integer' : `a ${p.type}`}`;
    case 'enum':
      return `is not one of the values: ${p.allowedValues.join(', ')}`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'minLength':
      return `must be at least ${p.limit} characters long`;
    case 'pattern':
      return `must match the pattern ${p.pattern}`;
    case 'format':
      return p.format === 'date-time' ? 'must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z' : `must be a valid ${p.format}`;
    case 'minimum':
    case 'maximum':
      return `must be ${p.comparison} ${p.limit}`;
    default:
      return e?.message ?? 'is invalid';
  }
}
