import type { ResourceDefinition } from '../../core/resource.js';
import { halRecord, recordRepresentation, type Link } from '../../http/hal.js';
import type { Page } from '../../store/list-query.js';

/** A page's records as HAL bodies, and the JSON of their array. */
interface Items {
  items: Record<string, unknown>[];
  json: string;
}

/** The items of each page the store shares between requests (see itemsOf). */
const built = new WeakMap<Page, Items>();

/**
 * The body of a list page and its JSON text (exactly `JSON.stringify(body)`). A frozen page is one
 * the store's page cache shares between requests until the next commit: its records are turned
 * into HAL and serialized once, and each request only adds its own links around them (the same
 * page may be asked for with its parameters in another order, and then links another way).
 */
export function pageBody(resource: ResourceDefinition, page: Page, links: Record<string, Link>, fields?: string[], expanded?: Record<string, unknown>[]): { body: Record<string, unknown>; json: string } {
  // Expanded items embed other records, which the page cache knows nothing of: built each time.
  const { items, json } = expanded ? { items: expanded, json: JSON.stringify(expanded) } : itemsOf(resource, page, fields);
  const total = page.total !== undefined ? { total: page.total } : {};
  const body = { _links: links, count: page.records.length, ...total, _embedded: { [resource.name]: items } };
  const head = JSON.stringify({ _links: links, count: page.records.length, ...total });
  return { body, json: `${head.slice(0, -1)},"_embedded":{${JSON.stringify(resource.name)}:${json}}}` };
}

function itemsOf(resource: ResourceDefinition, page: Page, fields?: string[]): Items {
  // A sparse fieldset is another representation of the same page: built each time, not kept.
  const shared = !fields && Object.isFrozen(page);
  let done = shared ? built.get(page) : undefined;
  if (done) return done;
  const items = page.records.map((r) => sparse(halRecord(resource, r), fields));
  done = { items, json: JSON.stringify(items) };
  if (shared) built.set(page, Object.freeze(done));
  return done;
}

/** The most JSON one page of a collection carries: 64 MiB, far above any page of ordinary records. */
const MAX_LIST_BYTES = 64 * 1024 ** 2;

/**
 * The page itself, or, when its records together are larger than `maxBytes` as JSON, its first
 * records that fit (at least one) and `hasMore`, so `next` goes on from the last one sent. A page
 * of a hundred records near the record limit would otherwise be gigabytes, past what one string
 * can hold. Measured only when the page could be that large (`recordLimit` per record), so
 * ordinary pages cost nothing more.
 */
export function fitListPage(resource: ResourceDefinition, page: Page, recordLimit: number, backwards: boolean, maxBytes = MAX_LIST_BYTES): Page {
  if (page.records.length * recordLimit <= maxBytes) return page;
  let bytes = 0;
  let n = 0;
  for (const record of page.records) {
    bytes += recordRepresentation(resource, record).json.length;
    if (n && bytes > maxBytes) break;
    n++;
  }
  // A backwards page's hasMore is about records before it; those after it are reached by its next link.
  return n === page.records.length ? page : { ...page, records: page.records.slice(0, n), hasMore: backwards ? page.hasMore : true };
}

/** The members of a record body a sparse fieldset keeps (all when `fields` is undefined), plus id and _links. */
export function sparse(body: Record<string, unknown>, fields?: string[]): Record<string, unknown> {
  if (!fields) return body;
  const out: Record<string, unknown> = { id: body.id };
  for (const f of fields) out[f] = body[f];
  out._links = body._links;
  return out;
}
