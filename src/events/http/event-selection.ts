import { BadRequestError } from '../../core/errors.js';
import { parseEventFilter, type EventFilter, type RawCondition } from '../../core/event-filter.js';
import type { HttpContext } from '../../http/context.js';

/** Which events a reader of the log or the stream selects, beyond their types: collections, and within one, a record or its fields. */
export interface EventSelection {
  /** Only events of these resources (none: every resource). */
  resources: string[];
  /** A record id and field conditions, on the one collection `resources` names. */
  filter?: EventFilter;
}

/** Every `resource` an event of this API can name: each collection, and each webhook source's inbox. */
export function eventResources(ctx: Pick<HttpContext, 'resources' | 'config'>): string[] {
  return [...ctx.resources.keys(), ...Object.keys(ctx.config.webhooks?.sources ?? {}).map((s) => `webhooks/${s}/events`)];
}

/** `filter[field]` (eq) or `filter[field][op]`, the list's `field[op]=v` under a `filter` prefix. */
const CONDITION_KEY = /^filter\[([^\]]*)\](?:\[([^\]]*)\])?$/;

/** True for the query parameters {@link parseEventSelection} reads. */
export function isSelectionParam(key: string): boolean {
  return key === 'resource' || key === 'recordId' || key === 'filter' || key.startsWith('filter[');
}

/**
 * Reads `resource=a,b` (or repeated), `recordId=7` and `filter[field][op]=v` (the list's filter
 * operators and values, core/field-condition.ts). A record id or a field condition needs exactly
 * one collection in `resource`. `where: false` refuses field conditions (the paged log, whose
 * pages SQL fills, cannot apply them). Every bad part is a 400 naming it.
 */
export function parseEventSelection(query: Record<string, unknown>, ctx: Pick<HttpContext, 'resources' | 'config'>, where = true): EventSelection {
  const known = eventResources(ctx);
  const resources = [query.resource ?? []].flat().map(String).join(',').split(',').filter(Boolean);
  for (const r of resources) if (!known.includes(r)) throw bad(`resource: "${r}" is not one of ${known.join(', ') || '(none configured)'}`);
  const ids = [query.recordId ?? []].flat().map(String);
  if (ids.length > 1) throw bad('recordId may be given only once');
  const recordId = ids[0] === '' ? undefined : ids[0];
  const conditions: RawCondition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (key !== 'filter' && !key.startsWith('filter[')) continue;
    const m = CONDITION_KEY.exec(key);
    if (!m) throw bad(`"${key}" is not a field filter; write filter[field]=value or filter[field][op]=value, e.g. filter[name][startsWith]=H`);
    if (!where) throw bad(`${key}: GET /events filters by resource, recordId and type only (a field filter would leave its pages short); follow GET /events/stream with field filters, or filter the pages yourself`);
    for (const value of [raw].flat()) conditions.push({ field: m[1]!, op: m[2], value: String(value), key });
  }
  if (recordId === undefined && !conditions.length) return { resources };
  const resource = resources.length === 1 ? ctx.resources.get(resources[0]!) : undefined;
  if (!resource) {
    const names = recordId !== undefined ? 'recordId' : 'filter[…]';
    throw bad(`${names} needs exactly one collection in resource (e.g. resource=characters&recordId=7); ${resources.length ? `resource names ${resources.join(', ')}` : 'resource is missing'}`);
  }
  return { resources, filter: parseEventFilter(resource, recordId, conditions, ctx.resources) };
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
