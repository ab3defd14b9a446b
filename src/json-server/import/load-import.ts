import { ValidationError } from '../../core/errors.js';
import type { RecordId } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { RecordValidator } from '../../core/validate.js';
import type { ImportSet } from '../../store/import-records.js';
import type { Store } from '../../store/store.js';
import { ImportError } from './import-error.js';
import type { ImportPlan } from './infer-resources.js';

/** The document kind under which each imported file's content hash is kept, by the file's absolute path. */
export const IMPORT_MARKER = 'json-server-import';

/** What the database remembers of a file it imported, to tell whether the file changed since. */
export interface ImportMarker {
  sha256: string;
  /** When the database's content was that file's (its import, or its export): what was written later was written through the API. */
  importedAt: string;
  collections: string[];
  /** Records per collection at that time (absent in markers written before they were counted). */
  counts?: Record<string, number>;
  /** What made the database and the file agree: `import` (the default) or `export`. */
  kind?: 'import' | 'export';
}

/** How to load a plan. */
export interface LoadOptions {
  /** The data file, as errors name it. */
  source: string;
  /** Replace the records of collections that hold some (else they are refused). */
  replace: boolean;
  /** The JSON depth the server accepts (config.server.maxJsonDepth). */
  maxJsonDepth: number;
  /** The largest record the server stores (config.server.recordLimit): a larger row is refused, naming it. */
  recordLimit: number;
  onProgress?: (collection: string, written: number) => void;
  /** Remember this file (absolute path) and content hash, so `serve <file>` knows it is loaded. */
  marker?: { file: string; sha256: string };
}

/** Most row problems listed in one error; a file with more is wrong in the same way many times. */
const MAX_PROBLEMS = 10;

/**
 * Loads an inferred plan into a store: every row is first validated as a POST of it would be
 * (so what is imported can be read, sent back and patched like any record; datetimes are stored
 * in UTC); then the tables are created or brought in line (a changed shape only with `replace`);
 * then all collections are written in one transaction, without events. A problem in any row
 * throws ImportError before anything is written.
 */
export async function loadImport(store: Store, resources: ResourceDefinition[], plan: ImportPlan, options: LoadOptions): Promise<void> {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const problems: string[] = [];
  const sets: ImportSet[] = [];
  for (const c of plan.collections) {
    const resource = byName.get(c.name)!;
    const validator = new RecordValidator(resource, resources, options.maxJsonDepth, options.recordLimit);
    const records: ImportSet['records'] = new Array(c.rows.length);
    for (let i = 0; i < c.rows.length && problems.length < MAX_PROBLEMS; i++) {
      try {
        records[i] = c.timestamps.length ? withTimestamps(c.ids[i]!, c.rows[i]!, validator) : { id: c.ids[i]!, data: validator.prepare(c.rows[i]) };
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        for (const e of err.errors) problems.push(`${c.name} id ${c.ids[i]}: ${e.pointer.slice(1) || '(record)'} ${e.detail}`);
      }
    }
    sets.push({ resource, records });
  }
  if (problems.length) throw new ImportError(problems.slice(0, MAX_PROBLEMS), options.source);
  await store.sync(resources, { allowDestructive: options.replace });
  await store.importRecords(sets, { replace: options.replace, onProgress: options.onProgress });
  if (options.marker) {
    const marker: ImportMarker = {
      sha256: options.marker.sha256,
      importedAt: new Date().toISOString(),
      collections: plan.collections.map((c) => c.name),
      counts: Object.fromEntries(plan.collections.map((c) => [c.name, c.rows.length])),
    };
    await store.putDocument(IMPORT_MARKER, options.marker.file, { ...marker });
  }
}

/**
 * A record whose row carries `createdAt` / `updatedAt` date-times: they become its own, in UTC (one
 * missing is the other; both missing, the time of the import), and are no fields.
 */
function withTimestamps(id: RecordId, row: Record<string, unknown>, validator: RecordValidator): ImportSet['records'][number] {
  const { createdAt, updatedAt, ...fields } = row;
  const given = (v: unknown) => (typeof v === 'string' ? new Date(v).toISOString() : undefined);
  const created = given(createdAt) ?? given(updatedAt);
  const updated = given(updatedAt) ?? created;
  return { id, data: validator.prepare(fields), ...(created ? { createdAt: created } : {}), ...(updated ? { updatedAt: updated } : {}) };
}

/** What the database remembers of importing `file` (its absolute path), if it did. */
export async function importMarker(store: Store, file: string): Promise<ImportMarker | undefined> {
  return (await store.getDocument(IMPORT_MARKER, file)) as ImportMarker | undefined;
}
