import type { FieldConfig, ResourceConfig } from '../../config/types.js';
import type { RecordId } from '../../core/record.js';
import { SINGULAR_ID } from '../../core/resource.js';
import { SYSTEM_FIELDS } from '../../core/record.js';
import { ImportError } from './import-error.js';
import { collectFields, fieldConfig } from './infer-fields.js';
import { inferIds } from './infer-ids.js';
import { referencedCollection } from './plural.js';

/** Collection and field names Restwell accepts (the config schema's patterns). */
const COLLECTION_NAME = /^[a-z][a-zA-Z0-9_-]{0,62}$/;
const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,62}$/;

/** One collection of a data file, as Restwell will serve it. */
export interface InferredCollection {
  name: string;
  config: ResourceConfig;
  /** The rows' ids as Restwell keeps them, in file order. */
  ids: RecordId[];
  /** The rows without their `id`, as in the file (validated and completed when loaded). */
  rows: Array<Record<string, unknown>>;
  /**
   * `createdAt` / `updatedAt` members of the rows that hold date-times (or nothing): they become
   * the records' own createdAt and updatedAt, which Restwell serves under those names, instead of fields.
   */
  timestamps: Array<'createdAt' | 'updatedAt'>;
}

/** What a json-server data file becomes. */
export interface ImportPlan {
  /** In the order to load them: every referenced collection before those that reference it. */
  collections: InferredCollection[];
  /** The config's `resources`, in file order. */
  resources: Record<string, ResourceConfig>;
  /** What was left out or decided, for the user to read (references not made, cycles broken…). */
  notes: string[];
}

/**
 * Infers resources from a json-server data file (already parsed): each member that is an array is
 * a collection of objects with ids; each plain-object member (a json-server "singular" resource,
 * such as `profile`) becomes a singular resource, its fields inferred from the object as from a
 * row, loaded as its one record (id 1); `$schema` is ignored, as json-server does. Throws
 * ImportError naming every member that cannot be kept as it is (bad names, ids Restwell cannot
 * keep, rows that are not objects).
 */
export function inferImport(data: unknown, source: string): ImportPlan {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ImportError([`the file must hold a JSON object whose members are collections (arrays of objects with ids), as json-server reads it; it holds ${Array.isArray(data) ? 'an array' : data === null ? 'null' : `a ${typeof data}`}`], source);
  }
  const problems: string[] = [];
  const notes: string[] = [];
  const found: InferredCollection[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (name === '$schema') continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const singular = inferSingular(name, value as Record<string, unknown>, problems);
      if (singular) found.push(singular);
      continue;
    }
    if (!Array.isArray(value)) {
      problems.push(`"${name}" is ${value === null ? 'null' : `a ${typeof value}`}; every member must be a collection (an array of objects) or a single object`);
      continue;
    }
    const collection = inferCollection(name, value, problems);
    if (collection) found.push(collection);
  }
  if (problems.length) throw new ImportError(problems, source);
  const order = inferReferences(found, notes);
  return { collections: order, resources: Object.fromEntries(found.map((c) => [c.name, c.config])), notes };
}

function inferCollection(name: string, value: unknown[], problems: string[]): InferredCollection | undefined {
  const before = problems.length;
  if (!COLLECTION_NAME.test(name)) {
    problems.push(`"${name}" cannot be a Restwell collection name (a lowercase letter first, then letters, digits, _ or -, at most 63); rename it in the file`);
  }
  const bad = value.findIndex((row) => row === null || typeof row !== 'object' || Array.isArray(row));
  if (bad >= 0) {
    problems.push(`${name}: row ${bad + 1} is ${JSON.stringify(value[bad])?.slice(0, 40) ?? 'undefined'}, not an object; a collection holds objects with ids`);
    return undefined;
  }
  const records = value as Array<Record<string, unknown>>;
  const ids = inferIds(records);
  if ('problem' in ids) problems.push(`${name}: ${ids.problem}`);
  const { fields, timestamps } = inferFields(name, records, problems);
  if (problems.length > before || 'problem' in ids) return undefined;
  const config: ResourceConfig = { ...(ids.idType !== 'integer' ? { id: ids.idType } : {}), fields };
  return { name, config, ids: ids.ids, rows: records.map(withoutId), timestamps };
}

/**
 * A json-server singular resource (`"profile": { "name": "typicode" }`): its fields inferred from
 * the one object as from a row, kept as the one record (id 1) of a `singular: true` resource. An
 * `id` member would be a field Restwell cannot have (every record's id is its own), so it is refused.
 */
function inferSingular(name: string, value: Record<string, unknown>, problems: string[]): InferredCollection | undefined {
  const before = problems.length;
  if (!COLLECTION_NAME.test(name)) {
    problems.push(`"${name}" cannot be a Restwell resource name (a lowercase letter first, then letters, digits, _ or -, at most 63); rename it in the file`);
  }
  if (Object.hasOwn(value, 'id')) {
    problems.push(`${name}: member "id" of this single object cannot be kept (a singular resource's one record has the id Restwell gives it); rename or remove it in the file`);
  }
  const { fields, timestamps } = inferFields(name, [value], problems);
  if (problems.length > before) return undefined;
  return { name, config: { singular: true, fields }, ids: [SINGULAR_ID], rows: [{ ...value }], timestamps };
}

/** The fields of a collection's rows (or of a singular object), and which of createdAt / updatedAt are the records' own. */
function inferFields(name: string, records: Array<Record<string, unknown>>, problems: string[]): Pick<InferredCollection, 'timestamps'> & { fields: Record<string, FieldConfig> } {
  const evidence = collectFields(records);
  const fields: Record<string, FieldConfig> = {};
  const timestamps: Array<'createdAt' | 'updatedAt'> = [];
  for (const [field, seen] of evidence) {
    if ((field === 'createdAt' || field === 'updatedAt') && [...seen.kinds].every((k) => k === 'datetime')) {
      timestamps.push(field);
    } else if ((SYSTEM_FIELDS as readonly string[]).includes(field)) {
      const why = field === 'version' ? '' : ` (it is kept as the record's own ${field} when every value is an RFC 3339 date-time with seconds and a zone)`;
      problems.push(`${name}: field "${field}" clashes with the member Restwell sets on every record${why}; rename it in the file`);
    } else if (!FIELD_NAME.test(field)) {
      problems.push(`${name}: field "${field}" cannot be a Restwell field name (a letter first, then letters, digits or _, at most 63); rename it in the file`);
    } else {
      fields[field] = fieldConfig(seen, records.length);
    }
  }
  return { fields, timestamps };
}

function withoutId(row: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = row;
  return rest;
}

/**
 * Makes `<singular>Id` fields references where json-server would follow them (`_expand`, `_embed`):
 * the collection they name exists and every value is an id of it. UUID values are lower-cased like
 * the ids; string ids are compared and kept exactly. A reference that would close a cycle (a collection referring to itself, or two referring
 * to each other) stays a plain field, so that collections load in order, referenced ones first.
 * Returns the collections in that order.
 */
function inferReferences(collections: InferredCollection[], notes: string[]): InferredCollection[] {
  const byName = new Map(collections.map((c) => [c.name, c]));
  const idSets = new Map(collections.map((c) => [c.name, new Set<RecordId>(c.ids)]));
  const edges = new Map<string, Array<{ field: string; to: string }>>();
  for (const c of collections) {
    const list: Array<{ field: string; to: string }> = [];
    for (const [field, f] of Object.entries(c.config.fields)) {
      const to = referencedCollection(field);
      const target = to === undefined ? undefined : byName.get(to);
      // A singular resource is one object, not records to point at.
      if (!target || target.config.singular) continue;
      const uuid = target.config.id === 'uuid';
      if (f.type !== (target.config.id === undefined || target.config.id === 'integer' ? 'integer' : 'string')) continue;
      const ids = idSets.get(target.name)!;
      const dangling = c.rows.find((row) => row[field] !== null && row[field] !== undefined && !ids.has(uuid ? (row[field] as string).toLowerCase() : (row[field] as number)));
      if (dangling) {
        notes.push(`${c.name}.${field}: kept as ${f.type}, not a reference to ${target.name}: ${JSON.stringify(dangling[field])} is no id of ${target.name}`);
        continue;
      }
      list.push({ field, to: target.name });
    }
    edges.set(c.name, list);
  }
  const order: InferredCollection[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (c: InferredCollection) => {
    state.set(c.name, 'visiting');
    for (const { field, to } of edges.get(c.name)!) {
      if (state.get(to) === 'visiting') {
        notes.push(`${c.name}.${field}: kept as ${c.config.fields[field]!.type}, not a reference to ${to}: the references would form a cycle, which cannot be loaded in order`);
        continue;
      }
      if (!state.has(to)) visit(byName.get(to)!);
      makeReference(c, field, to, byName.get(to)!.config.id === 'uuid');
    }
    state.set(c.name, 'done');
    order.push(c);
  };
  for (const c of collections) if (!state.has(c.name)) visit(c);
  return order;
}

function makeReference(c: InferredCollection, field: string, to: string, uuid: boolean): void {
  const f = c.config.fields[field]!;
  c.config.fields[field] = { type: 'reference', to, ...(f.required ? { required: true } : {}) };
  if (!uuid) return;
  for (const row of c.rows) if (typeof row[field] === 'string') row[field] = (row[field] as string).toLowerCase();
}
