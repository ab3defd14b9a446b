import { SYSTEM_FIELDS } from '../../core/record.js';
import type { FieldDefinition, ResourceDefinition } from '../../core/resource.js';
import { queryableField } from '../../core/system-fields.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../http/page-size.js';
import { expansionsOf, MAX_EXPAND_DEPTH, MAX_EXPAND_PATHS, REVERSE_EXPAND_LIMIT } from './expand.js';
import { OPERATORS, TEXT_ONLY } from '../../store/list-query.js';
import { MAX_FILTER_INTEGER, MAX_SEARCH_LENGTH } from './list-params.js';
import { pascal, type Json } from '../../http/openapi/components.js';
import { idSchema, type SchemaContext } from '../../http/openapi/schemas.js';

const OPERATOR_TEXT: Record<(typeof OPERATORS)[number], string> = {
  eq: 'equals',
  ne: 'does not equal',
  lt: 'is less than',
  lte: 'is at most',
  gt: 'is greater than',
  gte: 'is at least',
  in: 'is one of (comma-separated)',
  contains: 'contains (case-sensitive)',
  startsWith: 'starts with (case-sensitive)',
  icontains: 'contains, ignoring case (Unicode lower-case folding)',
  istartsWith: 'starts with, ignoring case (Unicode lower-case folding)',
};

/** The members a list can filter and sort by: id, the timestamps and every declared non-json field. */
export function queryableFields(r: ResourceDefinition): FieldDefinition[] {
  return ['id', ...r.fields.map((f) => f.name), 'createdAt', 'updatedAt'].map((n) => queryableField(r, n)).filter((f): f is FieldDefinition => !!f);
}

/** The schema of one filter value for a member, as written in the query string. */
function valueSchema(r: ResourceDefinition, field: FieldDefinition, ctx: SchemaContext): Json {
  // Integer filters (an integer id's too) take up to 15 digits, signed: id[gt]=0 is a fair question.
  if (field.name === 'id' && r.idType !== 'integer') return bare(idSchema(r));
  switch (field.type) {
    case 'integer':
      return { type: 'integer', minimum: -MAX_FILTER_INTEGER, maximum: MAX_FILTER_INTEGER };
    case 'number':
    case 'boolean':
      return { type: field.type };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'enum':
      return { type: 'string', enum: field.values };
    case 'reference': {
      const target = ctx.resources.get(field.to!);
      return target && target.idType !== 'integer' ? bare(idSchema(target)) : { type: 'integer', minimum: 0, maximum: MAX_FILTER_INTEGER };
    }
    default:
      return { type: 'string' };
  }
}

function bare(schema: Json): Json {
  const { description: _, ...rest } = schema;
  return rest;
}

/** Every filter parameter of a list: `field` (equals) and `field[op]` for each operator the field's type allows. */
function filterParameters(r: ResourceDefinition, ctx: SchemaContext): Json[] {
  const out: Json[] = [];
  for (const field of queryableFields(r)) {
    const value = valueSchema(r, field, ctx);
    const text = field.type === 'string' || field.type === 'enum';
    for (const op of OPERATORS) {
      if (TEXT_ONLY.has(op) && !text) continue;
      const name = op === 'eq' ? field.name : `${field.name}[${op}]`;
      const schema = op === 'in' ? { type: 'array', items: value, minItems: 1 } : TEXT_ONLY.has(op) ? { type: 'string' } : value;
      out.push({
        name,
        in: 'query',
        description: `Only records whose ${field.name} ${OPERATOR_TEXT[op]} this value.${op === 'eq' ? ` Same as ${field.name}[eq].` : ''} Filters combine with AND; a parameter may repeat.`,
        required: false,
        ...(op === 'in' ? { style: 'form', explode: false } : {}),
        schema,
      });
    }
  }
  return out;
}

/** The query parameters of `GET /{collection}`: filters, sort, fields, limit, cursor, total. */
export function listParameters(r: ResourceDefinition, ctx: SchemaContext): Json[] {
  const sortable = queryableFields(r).map((f) => f.name);
  const members = ['id', ...r.fields.map((f) => f.name), ...SYSTEM_FIELDS.filter((n) => n !== 'id')];
  return [
    ...filterParameters(r, ctx),
    {
      name: 'sort',
      in: 'query',
      description: 'Sort keys, comma-separated, most significant first; a leading `-` sorts descending. Ties are broken by id. Keep the same sort while paging.',
      style: 'form',
      explode: false,
      schema: { type: 'array', uniqueItems: true, items: { type: 'string', enum: sortable.flatMap((n) => [n, `-${n}`]) } },
    },
    {
      name: 'fields',
      in: 'query',
      description: 'Sparse fieldset: only these members (plus id and _links) in each record.',
      style: 'form',
      explode: false,
      schema: { type: 'array', uniqueItems: true, items: { type: 'string', enum: members } },
    },
    { name: 'limit', in: 'query', description: 'Records per page.', schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
    {
      name: 'cursor',
      in: 'query',
      description: 'Opaque position from a next or prev link; follow the links rather than building one. Empty: the first page.',
      schema: { type: 'string' },
    },
    { name: 'total', in: 'query', description: 'Also count every matching record (`total`); costs a count query.', schema: { type: 'boolean', default: false } },
    ...(r.search.length
      ? [{ name: 'q', in: 'query', description: `Search: only records where ${r.search.join(', ')} contains this text, ignoring case (Unicode lower-case folding). Combines with the filters (AND).`, schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH } }]
      : []),
    expandParameter(r, ctx),
  ];
}

/**
 * The `expand` parameter of a list or a read: the names this resource can expand, one level (deeper
 * paths join names with dots, e.g. `author.company`).
 */
export function expandParameter(r: ResourceDefinition, ctx: SchemaContext): Json {
  const names = [...expansionsOf(r, ctx.resources).keys()];
  const paths = expandPaths(r, ctx.resources, MAX_EXPAND_DEPTH);
  return {
    name: 'expand',
    in: 'query',
    description:
      `Embed related records under \`_embedded\`, comma-separated: a reference field embeds the record it points at (null when none or not visible), ` +
      `a referencing resource (\`comments\`, or \`comments:post\` when it references this one through several fields) the first ${REVERSE_EXPAND_LIMIT} records that point here, by id, with a link to them all. ` +
      `Nest with dots (\`author.company\`), at most ${MAX_EXPAND_DEPTH} levels and ${MAX_EXPAND_PATHS} paths.` +
      (names.length ? ` ${r.name} can expand: ${names.join(', ')}.` : ` ${r.name} has nothing to expand.`),
    style: 'form',
    explode: false,
    schema: paths.length
      ? { type: 'array', items: ctx.components.schema(`expand:${r.name}`, `${pascal(r.name)}Expansion`, () => ({ type: 'string', description: `A path expand= takes on ${r.name}`, enum: paths })), maxItems: MAX_EXPAND_PATHS }
      : { type: 'array', items: { type: 'string' }, maxItems: 0 },
  };
}

/** Most paths the document lists for one resource's `expand`; a denser graph gets its names' description alone. */
const MAX_LISTED_PATHS = 500;

/** Every path `expand` takes on `r`: its names, and theirs joined with dots, up to `depth` levels. */
function expandPaths(r: ResourceDefinition, resources: ReadonlyMap<string, ResourceDefinition>, depth: number): string[] {
  if (depth === 0) return [];
  const out: string[] = [];
  for (const [name, node] of expansionsOf(r, resources)) {
    out.push(name, ...expandPaths(node.target, resources, depth - 1).map((p) => `${name}.${p}`));
    if (out.length > MAX_LISTED_PATHS) return [];
  }
  return out;
}
