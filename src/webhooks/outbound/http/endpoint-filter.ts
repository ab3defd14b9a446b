import { DomainError, type FieldError } from '../../../core/errors.js';
import { MAX_CONDITIONS, parseEventFilter, type EventFilter, type RawCondition } from '../../../core/event-filter.js';
import { OPERATORS, TEXT_ONLY } from '../../../core/field-condition.js';
import type { ResourceDefinition } from '../../../core/resource.js';
import { queryableField } from '../../../core/system-fields.js';
import type { Json } from '../../../http/openapi/components.js';
import type { SchemaContext } from '../../../http/openapi/schemas.js';

/**
 * An endpoint's `filter` member: `{ "resource": "characters", "recordId": "7", "where": { "name":
 * { "startsWith": "H" } } }`, the same selection as `GET /events/stream?resource=characters&recordId=7&filter[name][startsWith]=H`
 * (core/event-filter.ts, with the list's operators and values). A bare value stands for `eq`
 * (`{"name": "Han"}`); `in` takes a list (or a comma-separated text, as in a URL). Null or left
 * out: every event. Each bad part is a FieldError pointing at it.
 */
export function parseEndpointFilter(value: unknown, resources: ReadonlyMap<string, ResourceDefinition>, errors: FieldError[]): EventFilter | null {
  if (value === undefined || value === null) return null;
  const at = (path: string, detail: string) => void errors.push({ pointer: `/filter${path}`, detail });
  if (typeof value !== 'object' || Array.isArray(value)) {
    at('', 'must be an object such as {"resource": "characters", "where": {"name": {"startsWith": "H"}}}, or null for every event');
    return null;
  }
  const f = value as Record<string, unknown>;
  const before = errors.length;
  for (const key of Object.keys(f)) if (!['resource', 'recordId', 'where'].includes(key)) at(`/${key}`, 'unknown member; allowed: resource, recordId, where');
  const resource = typeof f.resource === 'string' ? resources.get(f.resource) : undefined;
  if (!resource) {
    at('/resource', `required: the collection whose events pass, one of ${[...resources.keys()].join(', ') || '(none configured)'}`);
    return null;
  }
  let recordId: string | undefined;
  if (f.recordId !== undefined && f.recordId !== null) {
    if (typeof f.recordId === 'string' || (typeof f.recordId === 'number' && Number.isSafeInteger(f.recordId))) recordId = String(f.recordId);
    else at('/recordId', `must be the id of one ${resource.name} record (a string, or an integer)`);
  }
  const conditions = whereConditions(resource, f.where, at);
  if (errors.length > before) return null;
  // Checked one part at a time, so each problem points at its own member.
  const parts: Array<[string, () => unknown]> = [
    ['/recordId', () => parseEventFilter(resource, recordId, [], resources, { recordId: 'recordId' })],
    ...conditions.map((c): [string, () => unknown] => [`/where/${pointerText(c.field)}/${pointerText(c.op!)}`, () => parseEventFilter(resource, undefined, [c], resources)]),
  ];
  for (const [path, check] of parts) {
    try {
      check();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      at(path, err.message);
    }
  }
  if (errors.length > before) return null;
  return parseEventFilter(resource, recordId, conditions, resources);
}

/** The conditions of `where`: `{ field: { op: value } }` or `{ field: value }` (eq), as the list's parameters would carry them. */
function whereConditions(resource: ResourceDefinition, where: unknown, at: (path: string, detail: string) => void): RawCondition[] {
  if (where === undefined || where === null) return [];
  if (typeof where !== 'object' || Array.isArray(where)) {
    at('/where', 'must be an object of field conditions, e.g. {"name": {"startsWith": "H"}, "age": {"gte": 18}}');
    return [];
  }
  const out: RawCondition[] = [];
  for (const [field, spec] of Object.entries(where as Record<string, unknown>)) {
    const path = `/where/${pointerText(field)}`;
    if (!queryableField(resource, field)) {
      at(path, `${resource.name} has no filterable field "${field}"`);
      continue;
    }
    const ops = spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? Object.entries(spec as Record<string, unknown>) : [['eq', spec] as [string, unknown]];
    if (!ops.length) at(path, `must hold at least one operator: ${OPERATORS.join(', ')}`);
    for (const [op, raw] of ops) {
      const text = conditionText(raw, op === 'in');
      if (text === undefined) at(`${path}/${pointerText(op)}`, op === 'in' ? 'must be a list of values (strings, numbers or booleans)' : 'must be a string, a number or a boolean');
      else out.push({ field, op, value: text, key: `${field}.${op}` });
    }
  }
  if (out.length > MAX_CONDITIONS) at('/where', `at most ${MAX_CONDITIONS} conditions (${out.length} were sent)`);
  return out;
}

/** A JSON value as the text a URL would carry; undefined for what a URL cannot (null, objects). */
function conditionText(value: unknown, list: boolean): string | string[] | undefined {
  const one = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'boolean' ? String(v) : undefined);
  if (!list || !Array.isArray(value)) return one(value);
  const items = value.map(one);
  return items.length && items.every((i) => i !== undefined) ? (items as string[]) : undefined;
}

/** A JSON Pointer reference token (RFC 6901). */
function pointerText(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The filter as the endpoint's representation shows it (the shape it is written in, values typed). */
export function endpointFilterView(filter: EventFilter | null): Record<string, unknown> | null {
  if (!filter) return null;
  const where: Record<string, Record<string, unknown>> = {};
  for (const c of filter.where) (where[c.field] ??= {})[c.op] = c.value;
  return { resource: filter.resource, ...(filter.recordId === undefined ? {} : { recordId: filter.recordId }), where };
}

/** OpenAPI of the `filter` member. */
export function endpointFilterSchema(ctx: SchemaContext): Json {
  const ref = ctx.components.schema('webhook-endpoint-filter', 'WebhookEndpointFilter', () => ({
    type: 'object',
    description:
      'Only events of one collection, of one of its records (`recordId`), and/or whose record matches every condition of `where`: the list filters ' +
      `(\`{ "field": { "op": value } }\`, operators ${OPERATORS.join(', ')}; ${[...TEXT_ONLY].join(', ')} on text fields only; a bare value means eq; in takes a list), ` +
      'judged on the event\'s data: the record after the change for created and updated, as it last was for deleted. So an update that makes a record ' +
      'stop matching is not delivered. The same selection as GET /events/stream?resource=…&recordId=…&filter[field][op]=….',
    required: ['resource'],
    additionalProperties: false,
    properties: {
      resource: { type: 'string', enum: [...ctx.resources.keys()], description: 'The collection' },
      recordId: { type: ['string', 'integer'], description: 'Only events about this record' },
      where: {
        type: 'object',
        maxProperties: MAX_CONDITIONS,
        additionalProperties: {
          oneOf: [
            { type: ['string', 'number', 'boolean'], description: 'eq' },
            { type: 'object', minProperties: 1, propertyNames: { enum: [...OPERATORS] }, additionalProperties: { type: ['string', 'number', 'boolean', 'array'], items: { type: ['string', 'number', 'boolean'] } } },
          ],
        },
        description: 'Field conditions, all of which must hold',
      },
    },
    ...filterExample(ctx),
  }));
  return { oneOf: [ref, { type: 'null' }], description: 'null (or left out): every event the endpoint subscribes to' };
}

/** An example on this API's first collection and its first text field, when it has one. */
function filterExample(ctx: SchemaContext): { example?: Json } {
  const resource = [...ctx.resources.values()][0];
  const text = resource?.fields.find((f) => f.type === 'string');
  return resource && text ? { example: { resource: resource.name, where: { [text.name]: { startsWith: 'H' } } } } : {};
}
