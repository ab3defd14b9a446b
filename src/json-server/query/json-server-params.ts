import type { QueryDialect } from '../../resources/http/query-dialect.js';
import { BadRequestError } from '../../core/errors.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { queryableField } from '../../core/system-fields.js';
import { expansionsOf } from '../../resources/http/expand.js';

type Raw = Record<string, string | string[] | undefined>;

/** json-server's `field_op` suffixes that mean exactly a Restwell operator. */
const SUFFIXES: Record<string, string> = { gte: 'gte', lte: 'lte', ne: 'ne' };
/** Regular-expression syntax: a `_like` value without any is a plain case-insensitive substring. */
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|]/;
const PAGING = 'Restwell pages by cursor: send limit=N and follow _links.next (also in the Link header)';

/**
 * Rewrites json-server's list parameters (for users migrating from it) into Restwell's, where the
 * meaning is exactly the same: `_sort`/`_order` → `sort`, `_limit` → `limit`, `_expand` and
 * `_embed` → `expand`, `field_gte|_lte|_ne` → `field[op]`, `field_like` without regex syntax →
 * `field[icontains]`, `_page=1` (the first page) → nothing. Anything else json-server knows is a
 * 400 whose detail names the Restwell way. Restwell's own parameters pass through untouched.
 */
export function translateJsonServer(resource: ResourceDefinition, raw: Raw, resources: ReadonlyMap<string, ResourceDefinition>): Raw {
  if (!Object.keys(raw).some((k) => k.startsWith('_') || /_(gte|lte|ne|like)$/.test(k))) return raw;
  const out: Raw = {};
  const add = (key: string, value: string | string[]) => {
    const had = out[key];
    out[key] = had === undefined ? value : [...[had].flat(), ...[value].flat()];
  };
  const once = (key: string, value: string | string[] | undefined, instead: string) => {
    if (raw[instead] !== undefined) throw bad(`${key} and ${instead} mean the same; send only ${instead}`);
    if (Array.isArray(value)) throw bad(`${key} may be given only once`);
    return value ?? '';
  };
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (!key.startsWith('_')) {
      const m = /^(.+)_(gte|lte|ne|like)$/.exec(key);
      const field = m && !resource.fieldsByName.has(key) ? queryableField(resource, m[1]) : undefined;
      if (!m || !field) add(key, value);
      else if (m[2] !== 'like') add(`${m[1]}[${SUFFIXES[m[2]]}]`, value);
      else for (const v of [value].flat()) add(`${m[1]}[icontains]`, likeValue(key, v));
      continue;
    }
    switch (key) {
      case '_sort':
        add('sort', sortOf(once('_sort', value, 'sort'), raw._order));
        break;
      case '_order':
        if (raw._sort === undefined) throw bad(`_order needs _sort; Restwell spells both as sort=field (ascending) or sort=-field (descending)`);
        break;
      case '_limit':
        add('limit', once('_limit', value, 'limit'));
        break;
      case '_expand':
      case '_embed':
        add('expand', [value].flat().map((v) => expandOf(key, resource, v, resources)).join(','));
        break;
      case '_page':
        if (once('_page', value, 'cursor') !== '1') throw bad(`_page: ${PAGING}`);
        break;
      case '_start':
      case '_end':
      case '_per_page':
        throw bad(`${key}: ${PAGING}`);
      default:
        throw bad(`unknown query parameter "${key}": Restwell's list parameters are field filters, sort, fields, limit, cursor, total, q and expand (json-server's _sort, _order, _limit, _expand and _embed are translated)`);
    }
  }
  return out;
}

/**
 * The `expand` values of a read (`GET /{collection}/{id}`): `expand`, and json-server's `_expand`
 * and `_embed` translated. Other parameters of a read are ignored, as before.
 */
export function readExpandValues(resource: ResourceDefinition, raw: Raw, resources: ReadonlyMap<string, ResourceDefinition>): string[] {
  // Most reads have none of the three: no arrays are made for them.
  if (raw.expand === undefined && raw._expand === undefined && raw._embed === undefined) return [];
  const values = [raw.expand ?? []].flat();
  for (const key of ['_expand', '_embed'] as const) for (const v of [raw[key] ?? []].flat()) values.push(expandOf(key, resource, v, resources));
  return values;
}

/** One `_expand` (reference fields) or `_embed` (referencing collections) value as Restwell's `expand` value. */
function expandOf(key: '_expand' | '_embed', resource: ResourceDefinition, value: string, resources: ReadonlyMap<string, ResourceDefinition>): string {
  const name = key === '_expand' ? forwardName : reverseName;
  return value.split(',').map((v) => name(resource, v.trim(), resources)).join(',');
}

/** `_sort=a,b&_order=asc,desc` → `a,-b`; json-server 1's `_sort=-a` is already Restwell's spelling. */
export function sortOf(sort: string, order: string | string[] | undefined): string {
  if (Array.isArray(order)) throw bad('_order may be given only once (comma-separate the directions)');
  const keys = sort.split(',').map((k) => k.trim());
  const orders = order === undefined ? [] : order.split(',').map((o) => o.trim().toLowerCase());
  if (orders.length > keys.length) throw bad(`_order has ${orders.length} directions for ${keys.length} _sort keys`);
  return keys
    .map((k, i) => {
      const o = orders[i] ?? 'asc';
      if (o !== 'asc' && o !== 'desc') throw bad(`_order: "${o}" is neither asc nor desc`);
      return o === 'desc' ? (k.startsWith('-') ? k.slice(1) : `-${k}`) : k;
    })
    .join(',');
}

/** json-server's `_like` is a case-insensitive regular expression; without regex syntax that is exactly icontains. */
function likeValue(key: string, value: string): string {
  const field = key.slice(0, -'_like'.length);
  if (REGEX_SYNTAX.test(value)) throw bad(`${key}: Restwell has no regular-expression filter; for a case-insensitive substring send ${field}[icontains]=…, for a prefix ${field}[istartsWith]=…`);
  return value;
}

/** json-server's `_expand=post` follows `postId`; Restwell's expand names the reference field. */
export function forwardName(resource: ResourceDefinition, name: string, resources: ReadonlyMap<string, ResourceDefinition>): string {
  const known = expansionsOf(resource, resources);
  for (const candidate of [name, `${name}Id`]) if (known.get(candidate)?.kind === 'forward') return candidate;
  const valid = [...known.values()].filter((n) => n.kind === 'forward').map((n) => n.name);
  throw bad(`_expand: ${resource.name} has no reference field "${name}" or "${name}Id"${valid.length ? `; it can expand ${valid.join(', ')} (expand=${valid[0]})` : ''}`);
}

/** json-server's `_embed=comments` embeds the comments that reference this record: Restwell's reverse expansion. */
export function reverseName(resource: ResourceDefinition, name: string, resources: ReadonlyMap<string, ResourceDefinition>): string {
  const known = expansionsOf(resource, resources);
  if (known.get(name)?.kind === 'reverse') return name;
  const valid = [...known.values()].filter((n) => n.kind === 'reverse').map((n) => n.name);
  const these = valid.filter((v) => v.startsWith(`${name}:`));
  if (these.length) throw bad(`_embed: ${name} references ${resource.name} through several fields; say which with expand=${these.join(' or expand=')}`);
  throw bad(`_embed: no resource "${name}" references ${resource.name}${valid.length ? `; it can embed ${valid.join(', ')}` : ''}`);
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}

/** json-server's list and read parameters, read by the HAL routes where they mean exactly Restwell's. */
export const JSON_SERVER_QUERY: QueryDialect = { list: translateJsonServer, readExpand: readExpandValues };
