import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { Store } from '../../store/store.js';

/** Records read per query, and written per chunk: a 100,000-record collection is never one string. */
const PAGE = 1_000;

/** Where an export's text goes, chunk by chunk; a returned promise is waited for (backpressure). */
export type WriteChunk = (chunk: string) => void | Promise<void>;

/**
 * Writes the store's records as a json-server data file, formatted as json-server writes its own
 * (`JSON.stringify(db, null, 2)`): each collection an array of `{id, ...fields, createdAt,
 * updatedAt}` in id order (the timestamps make an import of the file keep them), a singular
 * resource the object of its fields and timestamps (its record id 1; `{}` while it has none). Collections are
 * read a page at a time by id, so memory stays flat however large they are. Resolves how many
 * records each resource wrote.
 */
export async function writeDataFile(store: Store, resources: ResourceDefinition[], write: WriteChunk): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  await write('{');
  for (const [i, resource] of resources.entries()) {
    await write(`${i ? ',' : ''}\n  ${JSON.stringify(resource.name)}: `);
    counts[resource.name] = isSingular(resource) ? await writeSingular(store, resource, write) : await writeCollection(store, resource, write);
  }
  await write(resources.length ? '\n}\n' : '}\n');
  return counts;
}

/** Set on resources served as one object (`"profile": {…}` in a data file); read loosely so this compiles before the flag exists everywhere. */
function isSingular(resource: ResourceDefinition): boolean {
  return (resource as { singular?: boolean }).singular === true;
}

async function writeSingular(store: Store, resource: ResourceDefinition, write: WriteChunk): Promise<number> {
  const record = await store.get(resource, 1);
  // Its timestamps too: an import keeps a singular object's createdAt/updatedAt as the record's own.
  await write(indent(JSON.stringify(record ? { ...fieldsOf(record), createdAt: record.createdAt, updatedAt: record.updatedAt } : {}, null, 2), '  '));
  return record ? 1 : 0;
}

async function writeCollection(store: Store, resource: ResourceDefinition, write: WriteChunk): Promise<number> {
  let written = 0;
  let after: RecordId | undefined;
  for (;;) {
    const page = await store.list(resource, { filters: [], sort: [], limit: PAGE, ...(after !== undefined ? { after: { values: [after], backwards: false } } : {}) });
    if (!page.records.length) break;
    let chunk = written ? ',' : '[';
    for (const [j, record] of page.records.entries()) chunk += `${j ? ',' : ''}\n    ${indent(JSON.stringify(rowOf(record), null, 2), '    ')}`;
    await write(chunk);
    written += page.records.length;
    after = page.records[page.records.length - 1]!.id;
    if (!page.hasMore) break;
  }
  await write(written ? '\n  ]' : '[]');
  return written;
}

/** A record as a json-server row: id first, its fields (null ones too: the field exists), then its timestamps. */
function rowOf(record: StoredRecord): Record<string, unknown> {
  return { id: record.id, ...fieldsOf(record), createdAt: record.createdAt, updatedAt: record.updatedAt };
}

function fieldsOf(record: StoredRecord): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  // Field names start with a letter (config schema), so none is `__proto__`.
  for (const name of Object.keys(record.data)) fields[name] = record.data[name];
  return fields;
}

/** Indents every line but the first (which follows text already written on its line). */
function indent(text: string, by: string): string {
  return text.replaceAll('\n', `\n${by}`);
}
