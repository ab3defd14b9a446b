import { OPERATORS, TEXT_ONLY } from '../../core/field-condition.js';
import { MAX_CONDITIONS } from '../../core/event-filter.js';
import type { Json } from '../../http/openapi/components.js';
import type { SchemaContext } from '../../http/openapi/schemas.js';

/** What a field filter is judged on, said once for the stream's parameters and the README. */
export const FIELD_FILTER_RULE =
  'Each event is judged on its own data: the record after the change for created and updated events, the record as it last was for ' +
  'deleted ones; so an update that makes a record stop matching is not sent, and one that makes it match is.';

/** `recordId`, as `GET /events` and the stream take it. */
export function recordIdParameter(): Json {
  return {
    name: 'recordId',
    in: 'query',
    description: 'Only events about this record; needs exactly one collection in `resource` (e.g. `resource=characters&recordId=7`).',
    schema: { type: 'string', minLength: 1 },
  };
}

/** The stream's selection beyond `type`: `resource`, `recordId` and the field filters `filter[field][op]=value`. */
export function streamSelectionParameters(ctx: SchemaContext): Json[] {
  const sources = Object.keys(ctx.config.webhooks?.sources ?? {}).map((s) => `webhooks/${s}/events`);
  const values = [...ctx.resources.keys(), ...sources];
  return [
    {
      name: 'resource',
      in: 'query',
      description: 'Only events about records of these collections (comma-separated, or repeated), as for `GET /events`.',
      style: 'form',
      explode: false,
      schema: { type: 'array', items: values.length ? { type: 'string', enum: values } : { type: 'string', minLength: 1 } },
    },
    recordIdParameter(),
    {
      name: 'filter',
      in: 'query',
      description:
        'Field filters on the record, in the list\'s syntax under `filter`: `filter[name]=Han` (eq) or `filter[name][startsWith]=H`, all of which must ' +
        `hold; operators ${OPERATORS.join(', ')} (${[...TEXT_ONLY].join(', ')} on text fields only), values and case folding as on the collection's list, ` +
        `at most ${MAX_CONDITIONS}. Needs exactly one collection in \`resource\`. ${FIELD_FILTER_RULE}`,
      style: 'deepObject',
      explode: true,
      schema: {
        type: 'object',
        additionalProperties: {
          oneOf: [
            { type: 'string', description: 'eq' },
            { type: 'object', propertyNames: { enum: [...OPERATORS] }, additionalProperties: { type: 'string' } },
          ],
        },
      },
    },
  ];
}
