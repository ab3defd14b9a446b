import { BadRequestError } from '../../core/errors.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { queryableField } from '../../core/system-fields.js';
import { expansionsOf } from '../../resources/http/expand.js';
import { parseFilterParam, parseListParams } from '../../resources/http/list-params.js';
import type { RawQuery } from '../../resources/http/query-dialect.js';
import type { Filter, ListQuery } from '../../store/list-query.js';
import { forwardName, reverseName, sortOf } from '../query/json-server-params.js';
import { likeFilter } from './like.js';

/** The most records one json-server list answers: a list without `_limit` gets them all up to this. */
export const LIST_CAP = 10_000;
/** json-server's page size when `_page` comes without `_limit`. */
const DEFAULT_PAGE_SIZE = 10;

/** How a json-server list is cut: all of it, an offset slice, a numbered page, or json-server 1's pages object. */
export type Paging =
  | { kind: 'all' }
  | { kind: 'slice'; offset: number; limit: number }
  | { kind: 'page'; page: number; limit: number }
  | { kind: 'pages'; page: number; limit: number };

/** A json-server list request in Restwell's terms. */
export interface JsonServerList {
  query: ListQuery;
  paging: Paging;
  /** `_expand` (json-server's key → Restwell's expand name) and `_embed` (the same for reverse references). */
  expand: Array<{ key: string; name: string }>;
}

/** Parameters json-server itself ignores: JSONP's callback and jQuery's cache-buster. */
const IGNORED = new Set(['_', 'callback']);
const CONTROLS = new Set(['q', '_sort', '_order', '_page', '_limit', '_per_page', '_start', '_end', '_embed', '_expand']);
const SUFFIXED = /^(.+)_(gte|lte|gt|lt|ne|like)$/;

/**
 * Reads json-server's list parameters (0.17's, and 1.x's `_per_page`, `_gt`/`_lt` and `_sort=-f`):
 * `field=v` (repeated: any of the values), `field_gte|_lte|_gt|_lt|_ne|_like`, `q`, `_sort`/`_order`,
 * `_page`/`_limit`/`_per_page`/`_start`/`_end`, `_embed` (json-server 1's forward `_embed=post` too), `_expand`. Every value is checked and typed
 * as Restwell's own filters are; what cannot mean anything on this resource is a 400 naming it.
 */
export function parseJsonServerList(resource: ResourceDefinition, raw: RawQuery, resources: ReadonlyMap<string, ResourceDefinition>): JsonServerList {
  const filters: Filter[] = [];
  const native: RawQuery = {};
  for (const [key, value] of Object.entries(arrayKeys(raw))) {
    if (value === undefined || IGNORED.has(key) || CONTROLS.has(key)) continue;
    const values = [value].flat();
    const m = SUFFIXED.exec(key);
    if (m && !resource.fieldsByName.has(key) && queryableField(resource, m[1])) {
      filters.push(...suffixed(resource, key, m[1], m[2], values, resources));
    } else if (key.includes('[')) {
      // Restwell's own `field[op]=v` filters work here too.
      for (const v of values) filters.push(parseFilterParam(resource, key, v, resources));
    } else if (!queryableField(resource, key)) {
      throw bad(`unknown query parameter "${key}": ${resource.name} has no field "${key}" (json-server would ignore it and answer every record)`);
    } else if (values.length === 1) {
      filters.push(parseFilterParam(resource, `${key}[eq]`, values[0], resources));
    } else {
      // Repeated (`id=1&id=2`): json-server keeps a record equal to any of them.
      const typed = values.map((v) => parseFilterParam(resource, `${key}[eq]`, v, resources).value);
      filters.push({ field: key, op: 'in', value: typed });
    }
  }
  if (raw._sort !== undefined) native.sort = sortOf(single('_sort', raw._sort), raw._order);
  if (raw.q !== undefined) native.q = [raw.q].flat()[0];
  const { query } = parseListParams(resource, native, resources);
  query.filters.push(...filters);
  // json-server sorts with lodash, which puts records without a value last ascending and first descending.
  query.nullsLargest = true;
  return { query, paging: pagingOf(raw), expand: parseJsonServerExpand(resource, raw, resources) };
}

/**
 * `id[]=1&id[]=2`, as axios and qs write an array (json-server reads it with Express's qs), is
 * `id=1&id=2`: the values of `name[]` join those of `name`.
 */
function arrayKeys(raw: RawQuery): RawQuery {
  if (!Object.keys(raw).some((k) => k.endsWith('[]'))) return raw;
  const out: RawQuery = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const had = out[name];
    out[name] = had === undefined ? value : [...[had].flat(), ...[value].flat()];
  }
  return out;
}

/** The `_expand`/`_embed` values of a read (`GET /{collection}/{id}`), as parseJsonServerList reads them. */
export function parseJsonServerExpand(resource: ResourceDefinition, raw: RawQuery, resources: ReadonlyMap<string, ResourceDefinition>): JsonServerList['expand'] {
  const out: JsonServerList['expand'] = [];
  for (const v of [raw._expand ?? []].flat()) for (const key of names(v)) out.push({ key, name: forwardName(resource, key, resources) });
  for (const v of [raw._embed ?? []].flat()) for (const key of names(v)) out.push({ key, name: embedName(resource, key, resources) });
  return out;
}

/** `_embed=comments` embeds the records referencing this one; json-server 1 also takes `_embed=post` for the one `postId` names. */
function embedName(resource: ResourceDefinition, key: string, resources: ReadonlyMap<string, ResourceDefinition>): string {
  const known = expansionsOf(resource, resources);
  if (known.get(key)?.kind !== 'reverse' && [key, `${key}Id`].some((k) => known.get(k)?.kind === 'forward')) return forwardName(resource, key, resources);
  return reverseName(resource, key, resources);
}

function names(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** `field_gte=…` and the like; json-server's `_ne` excludes records without a value, as it compares only values. */
function suffixed(resource: ResourceDefinition, key: string, field: string, op: string, values: string[], resources: ReadonlyMap<string, ResourceDefinition>): Filter[] {
  if (op === 'ne') return [...values.map((v) => parseFilterParam(resource, `${field}[ne]`, v, resources)), { field, op: 'ne', value: null }];
  const value = single(key, values.length === 1 ? values[0] : values);
  if (op === 'like') return [likeFilter(resource, key, field, value, resources)];
  return [parseFilterParam(resource, `${field}[${op}]`, value, resources)];
}

function pagingOf(raw: RawQuery): Paging {
  const int = (key: string, min: number) => {
    const v = raw[key];
    if (v === undefined) return undefined;
    const text = single(key, v);
    if (!/^\d{1,9}$/.test(text)) throw bad(`${key} must be a whole number${min ? ` from ${min}` : ''} ("${text.slice(0, 20)}" is not)`);
    return Number(text);
  };
  const page = int('_page', 0);
  const perPage = int('_per_page', 1);
  const limit = int('_limit', 0);
  const start = int('_start', 0);
  const end = int('_end', 0);
  const capped = (n: number, key: string) => {
    if (n > LIST_CAP) throw bad(`${key}: at most ${LIST_CAP} records are sent at once (${n} were asked for)`);
    return n;
  };
  if (perPage !== undefined) return { kind: 'pages', page: Math.max(1, page ?? 1), limit: capped(perPage, '_per_page') };
  if (page !== undefined) return { kind: 'page', page: Math.max(1, page), limit: capped(limit ?? DEFAULT_PAGE_SIZE, '_limit') };
  if (end !== undefined) return { kind: 'slice', offset: start ?? 0, limit: capped(Math.max(0, end - (start ?? 0)), '_end - _start') };
  if (limit !== undefined) return { kind: 'slice', offset: start ?? 0, limit: capped(limit, '_limit') };
  return { kind: 'all' };
}

function single(key: string, value: string | string[]): string {
  if (Array.isArray(value)) throw bad(`${key} may be given only once`);
  return value;
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
