import { defineResources } from '../../core/resource.js';
import type { Filter } from '../../store/list-query.js';
import type { Store } from '../../store/store.js';
import { IMPORT_MARKER, type ImportMarker } from './load-import.js';

/** Records of one collection written through the API since the database last agreed with a file. */
export interface CollectionWrites {
  collection: string;
  created: number;
  changed: number;
  deleted: number;
  /** When the database last agreed with a file on this collection (its import or export); undefined: never. */
  since?: string;
  /** The file it agreed with (an absolute path). */
  file?: string;
}

/** Total records a re-import would delete or overwrite. */
export function lostRecords(writes: CollectionWrites[]): number {
  return writes.reduce((n, w) => n + w.created + w.changed + w.deleted, 0);
}

/**
 * What re-importing `collections` would lose: per collection, the records created, changed and
 * deleted through the API since the database's content was last a file's. That moment is the
 * latest of this file's import (`marker`) and any export, per collection (an export saves what the
 * API wrote into a file). It is read from the records themselves, so it survives restarts and event
 * retention and is the same on every engine: every API write stamps `updatedAt` (and a create
 * `createdAt`) with the time of the write, later than the baseline; a record kept since has both at
 * or before it; the baseline's count minus the records kept is what was deleted. (A file whose rows
 * carry timestamps later than their import counts them as written since: a refusal, never a loss.)
 * A collection no file was ever loaded into counts every record it holds as created.
 */
export async function apiWritesSince(store: Store, file: string, marker: ImportMarker, collections: string[]): Promise<CollectionWrites[]> {
  const markers = (await store.listDocuments(IMPORT_MARKER)).map((d) => ({ file: d.id, marker: d.data as unknown as ImportMarker }));
  const writes: CollectionWrites[] = [];
  for (const collection of collections) {
    let base: { file: string; marker: ImportMarker } | undefined = marker.collections.includes(collection) ? { file, marker } : undefined;
    for (const m of markers) {
      if (m.marker.kind === 'export' && m.marker.counts?.[collection] !== undefined && (!base || m.marker.importedAt > base.marker.importedAt)) base = m;
    }
    writes.push(await collectionWrites(store, collection, base?.marker.importedAt, base?.marker.counts?.[collection], base?.file));
  }
  return writes;
}

async function collectionWrites(store: Store, collection: string, since: string | undefined, baseline: number | undefined, file: string | undefined): Promise<CollectionWrites> {
  // Only the system columns are read: the file's new shape may name fields the table does not have yet.
  const [resource] = defineResources({ resources: { [collection]: { fields: {} } } });
  const count = async (filters: Filter[]) => (await store.list(resource!, { filters, sort: [], limit: 1, withTotal: true })).total ?? 0;
  if (since === undefined) {
    try {
      return { collection, created: await count([]), changed: 0, deleted: 0 };
    } catch (err) {
      // No table (a collection new to the file, in a database that never had it): nothing to lose.
      if (isMissingTable(err)) return { collection, created: 0, changed: 0, deleted: 0 };
      throw err;
    }
  }
  const kept = await count([{ field: 'createdAt', op: 'lte', value: since }]);
  return {
    collection,
    created: await count([{ field: 'createdAt', op: 'gt', value: since }]),
    changed: await count([{ field: 'createdAt', op: 'lte', value: since }, { field: 'updatedAt', op: 'gt', value: since }]),
    deleted: baseline === undefined ? 0 : Math.max(0, baseline - kept),
    since,
    file,
  };
}

/** The drivers' error for a table that does not exist (SQLite's message, PostgreSQL's undefined_table). */
function isMissingTable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return e?.code === '42P01' || (typeof e?.message === 'string' && /^no such table/.test(e.message));
}

/** How many records each collection holds (0 without a table). */
export async function heldRecords(store: Store, collections: string[]): Promise<Array<{ collection: string; records: number }>> {
  const held = [];
  for (const collection of collections) held.push({ collection, records: (await collectionWrites(store, collection, undefined, undefined, undefined)).created });
  return held;
}

/** `posts: 1 created, 2 changed; comments: 1 deleted` (collections with none are left out). */
export function describeWrites(writes: CollectionWrites[]): string {
  return writes
    .filter((w) => w.created + w.changed + w.deleted > 0)
    .map((w) => {
      const parts = [['created', w.created], ['changed', w.changed], ['deleted', w.deleted]].filter(([, n]) => n).map(([what, n]) => `${n} ${what}`);
      return `${w.collection}: ${parts.join(', ')}`;
    })
    .join('; ');
}
