import { BadRequestError } from '../../core/errors.js';
import { formatBytes } from '../../core/json-size.js';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { recordRepresentation, type Link } from '../../http/hal.js';
import { fixedEtag } from '../../http/respond.js';
import type { Store } from '../../store/store.js';
import { REVERSE_EXPAND_LIMIT, type ExpandNode } from './expand.js';
import { sparse } from './list-body.js';

/** The most records one response embeds, over every expansion and level. */
export const MAX_EMBEDDED = 2000;
/**
 * The most JSON one response embeds (16 MiB, or one record limit when that is more): a record
 * many others reference is embedded once per reference, so a page could otherwise repeat a large
 * record a hundred times over, from one small request.
 */
export const MAX_EMBEDDED_BYTES = 16 * 1024 ** 2;

/**
 * What the expansions of some records found (per node, the records keyed by what relates them),
 * and what embedding them has cost so far: every embedding counts, a record embedded twice twice.
 */
export class Loaded extends Map<ExpandNode, Map<RecordId, StoredRecord[]>> {
  private embedded = 0;
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxRecords = MAX_EMBEDDED,
  ) {
    super();
  }

  /** Counts one more embedded record of `json`; past MAX_EMBEDDED records or maxBytes, the request is refused. */
  charge(json: string): void {
    this.bytes += json.length;
    if (++this.embedded > this.maxRecords) throw tooMany(this.maxRecords);
    if (this.bytes > this.maxBytes) {
      throw new BadRequestError('invalid-query', `expand would embed more than ${formatBytes(this.maxBytes)} of records (a record is embedded once per reference to it); ask for a smaller limit or fewer expansions`);
    }
  }
}

const tooMany = (most: number) => new BadRequestError('invalid-query', `expand would embed more than ${most} records; ask for a smaller limit or fewer expansions`);

/** How much one response may embed: referencing records per record (reverse), and records in all. */
export interface ExpansionLimits {
  perValue: number;
  maxRecords: number;
}

/** Restwell's own: the first REVERSE_EXPAND_LIMIT referencing records, MAX_EMBEDDED in all. */
const HAL_LIMITS: ExpansionLimits = { perValue: REVERSE_EXPAND_LIMIT, maxRecords: MAX_EMBEDDED };

/**
 * Loads what `nodes` embed for `records`, level by level: one query per expansion path and level
 * for the whole page (forward: `id IN (…)`; reverse: `field IN (…)`, first REVERSE_EXPAND_LIMIT+1
 * per record), never one per record. More than MAX_EMBEDDED records in all is a 400, and so is
 * more than MAX_EMBEDDED_BYTES (or `recordLimit`, when larger) of them once embedded.
 */
export async function loadExpansions(store: Store, resource: ResourceDefinition, records: readonly StoredRecord[], nodes: ExpandNode[], recordLimit = 0, limits: ExpansionLimits = HAL_LIMITS): Promise<Loaded> {
  const loaded = new Loaded(Math.max(MAX_EMBEDDED_BYTES, recordLimit), limits.maxRecords);
  let budget = limits.maxRecords;
  const visit = async (parents: readonly StoredRecord[], level: ExpandNode[]): Promise<void> => {
    for (const node of level) {
      const found = node.kind === 'forward' ? await loadForward(store, node, parents) : await loadReverse(store, node, parents, limits.perValue);
      loaded.set(node, found.byKey);
      budget -= found.records.length;
      if (budget < 0) throw tooMany(limits.maxRecords);
      if (node.children.length && found.records.length) await visit(found.records, node.children);
    }
  };
  if (records.length) await visit(records, nodes);
  return loaded;
}

async function loadForward(store: Store, node: ExpandNode, parents: readonly StoredRecord[]) {
  const ids = [...new Set(parents.map((p) => p.data[node.field]).filter((v) => v !== null && v !== undefined))] as RecordId[];
  const byKey = new Map<RecordId, StoredRecord[]>();
  if (!ids.length) return { records: [] as StoredRecord[], byKey };
  const page = await store.list(node.target, { filters: [{ field: 'id', op: 'in', value: ids }], sort: [], limit: ids.length, ...(node.owner !== undefined ? { owner: node.owner } : {}) });
  for (const r of page.records) byKey.set(r.id, [r]);
  return { records: page.records, byKey };
}

async function loadReverse(store: Store, node: ExpandNode, parents: readonly StoredRecord[], perValue: number) {
  const values = [...new Set(parents.map((p) => p.id))];
  const records = await store.listReferencing(node.target, { field: node.field, values, perValue, ...(node.owner !== undefined ? { owner: node.owner } : {}) });
  const byKey = new Map<RecordId, StoredRecord[]>();
  for (const r of records) {
    const key = r.data[node.field] as RecordId;
    const list = byKey.get(key);
    if (list) list.push(r);
    else byKey.set(key, [r]);
  }
  return { records, byKey };
}

/**
 * The HAL body of `record` with its expansions under `_embedded`: a forward expansion is the
 * referenced record (null when the reference is null, dangling, or to a record the caller may not
 * see under an owner rule); a reverse one is an array of the first REVERSE_EXPAND_LIMIT referencing
 * records by id, with a link of the same name to the whole filtered list. The record's own cached
 * body is copied, never changed.
 */
export function expandedBody(resource: ResourceDefinition, record: StoredRecord, nodes: ExpandNode[], loaded: Loaded): Record<string, unknown> {
  const base = recordRepresentation(resource, record).body;
  if (!nodes.length) return base;
  const links: Record<string, Link> = { ...(base._links as Record<string, Link>) };
  const embedded: Record<string, unknown> = {};
  for (const node of nodes) {
    const found = loaded.get(node);
    if (node.kind === 'forward') {
      const id = record.data[node.field] as RecordId | null;
      const target = id === null || id === undefined ? undefined : found?.get(id)?.[0];
      embedded[node.name] = target ? embed(node, target, loaded) : null;
    } else {
      const related = (found?.get(record.id) ?? []).slice(0, REVERSE_EXPAND_LIMIT);
      embedded[node.name] = related.map((r) => embed(node, r, loaded));
      links[node.name] = { href: `/${node.target.name}?${new URLSearchParams({ [node.field]: String(record.id) })}` };
    }
  }
  return { ...base, _links: links, _embedded: embedded };
}

/** One embedded record, counted against the response's budget before it is built. */
function embed(node: ExpandNode, record: StoredRecord, loaded: Loaded): Record<string, unknown> {
  loaded.charge(recordRepresentation(node.target, record).json);
  return expandedBody(node.target, record, node.children, loaded);
}

/**
 * The strong ETag of an expanded representation: a digest of its bytes. The record's own ETag
 * would stay the same when an embedded record changes, and a client would keep a stale copy; the
 * digest changes with any part (same bytes, same tag, so it is strong, and If-Match can use it).
 */
export function expandedEtag(json: string): string {
  // `x.` keeps it apart from a record's own `"version.gen"` tags at a glance.
  return `"x.${fixedEtag(json).slice(1)}`;
}

/** A list item with its expansions: the sparse fieldset (`fields=`) applies to the record's own members only. */
export function expandedItem(resource: ResourceDefinition, record: StoredRecord, nodes: ExpandNode[], loaded: Loaded, fields?: string[]): Record<string, unknown> {
  const body = expandedBody(resource, record, nodes, loaded);
  return fields ? { ...sparse(body, fields), _embedded: body._embedded } : body;
}
