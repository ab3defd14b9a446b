import type { FieldType, IdType } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';

/** What the database was last synced to, per resource (kept in the `_rw_schema` table). */
export interface StoredShape {
  idType: IdType;
  /** `required` is recorded since required fields are back-filled or refused at sync; `search` is set (true) only on a field `q=` searches; shapes stored before either existed lack them. */
  fields: Record<string, { type: FieldType; unique: boolean; index: boolean; required?: boolean; to?: string; search?: boolean }>;
}

/** One DDL step; engines translate each into their own SQL. */
export type SchemaStep =
  | { kind: 'create-table'; resource: ResourceDefinition }
  | { kind: 'drop-table'; resource: string }
  | { kind: 'add-column'; resource: string; field: ResourceDefinition['fields'][number] }
  | { kind: 'drop-column'; resource: string; field: string }
  /** A field's `renamedFrom`: the column keeps its values (see planRenames). */
  | { kind: 'rename-column'; resource: string; from: string; to: string }
  | { kind: 'create-index'; resource: string; field: string; unique: boolean }
  | { kind: 'drop-index'; resource: string; field: string; unique: boolean }
  /** The index `q=` and the case-insensitive operators use, where the engine has one (see ColumnTypes.searchIndex). */
  | { kind: 'create-search-index'; resource: string; field: string }
  | { kind: 'drop-search-index'; resource: string; field: string };

/** Data a destructive change allowed by `allowDestructiveMigrations` deletes: a field's values, or a whole table's records. */
export type SchemaLoss =
  | { kind: 'field'; resource: string; field: string; why: string }
  | { kind: 'table'; resource: string; why: string };

/** The steps to apply, the destructive changes refused (or, when allowed, the data they delete), and what is merely noted. */
export interface SchemaPlan {
  steps: SchemaStep[];
  refused: string[];
  losses: SchemaLoss[];
  notes: string[];
}

/** The shape a resource definition is stored as. */
export function shapeOf(resource: ResourceDefinition): StoredShape {
  return {
    idType: resource.idType,
    fields: Object.fromEntries(
      resource.fields.map((f) => [f.name, { type: f.type, unique: !!f.unique, index: !!f.index, required: !!f.required, ...(f.to ? { to: f.to } : {}), ...(resource.search.includes(f.name) ? { search: true } : {}) }]),
    ),
  };
}

/** The name of a field's search index (see SchemaStep `create-search-index`). */
export function searchIndexName(resource: string, field: string): string {
  return `rw_${resource}_${field}_s`;
}

/** Index name for a field, shared by every engine so a plan can drop what an earlier sync made. */
export function indexName(resource: string, field: string, unique: boolean): string {
  return `rw_${resource}_${field}_${unique ? 'u' : 'i'}`;
}

/**
 * Compares the stored shapes with the wanted resources. Adding is always allowed; removing or
 * retyping a field (or changing a resource's id type) loses data, so it is refused unless
 * `allowDestructive` is set. A resource missing from the config keeps its table and data.
 */
export function planSchema(stored: Map<string, StoredShape>, wanted: ResourceDefinition[], allowDestructive: boolean): SchemaPlan {
  const plan: SchemaPlan = { steps: [], refused: [], losses: [], notes: [] };
  const destructive = (what: string, loss: SchemaLoss, steps: SchemaStep[]) => {
    if (allowDestructive) {
      plan.steps.push(...steps);
      plan.losses.push(loss);
    } else {
      plan.refused.push(what);
    }
  };
  for (const resource of wanted) {
    const before = stored.get(resource.name);
    if (!before) {
      plan.steps.push({ kind: 'create-table', resource });
      continue;
    }
    if (before.idType !== resource.idType) {
      destructive(`resources.${resource.name}.id: changing the id type from ${before.idType} to ${resource.idType} recreates the table and deletes its records`, { kind: 'table', resource: resource.name, why: `id type changed from ${before.idType} to ${resource.idType}` }, [
        { kind: 'drop-table', resource: resource.name },
        { kind: 'create-table', resource },
      ]);
      continue;
    }
    const after = shapeOf(resource).fields;
    for (const [name, old] of Object.entries(before.fields)) {
      const now = after[name];
      if (!now) {
        destructive(`resources.${resource.name}.fields.${name}: removing the field deletes its stored values`, { kind: 'field', resource: resource.name, field: name, why: 'field removed from the config' }, [
          ...indexDrops(resource.name, name, old),
          { kind: 'drop-column', resource: resource.name, field: name },
        ]);
      } else if (now.type !== old.type || now.to !== old.to) {
        destructive(`resources.${resource.name}.fields.${name}.type: changing ${old.type} to ${now.type} deletes its stored values`, { kind: 'field', resource: resource.name, field: name, why: `type changed from ${describeType(old)} to ${describeType(now)}` }, [
          ...indexDrops(resource.name, name, old),
          { kind: 'drop-column', resource: resource.name, field: name },
          ...columnAdds(resource, name),
        ]);
      } else {
        for (const unique of [true, false]) {
          const had = unique ? old.unique : old.index;
          const has = unique ? now.unique : now.index;
          if (had && !has) plan.steps.push({ kind: 'drop-index', resource: resource.name, field: name, unique });
          if (!had && has) plan.steps.push({ kind: 'create-index', resource: resource.name, field: name, unique });
        }
        if (old.search && !now.search) plan.steps.push({ kind: 'drop-search-index', resource: resource.name, field: name });
        if (!old.search && now.search) plan.steps.push({ kind: 'create-search-index', resource: resource.name, field: name });
      }
    }
    for (const name of Object.keys(after)) if (!before.fields[name]) plan.steps.push(...columnAdds(resource, name));
  }
  for (const name of stored.keys()) {
    if (!wanted.some((r) => r.name === name)) plan.notes.push(`resource ${name} is no longer configured; its table and records are kept`);
  }
  return plan;
}

function describeType(shape: StoredShape['fields'][string]): string {
  return shape.to ? `${shape.type} to ${shape.to}` : shape.type;
}

function indexDrops(resource: string, field: string, old: StoredShape['fields'][string]): SchemaStep[] {
  const drops: SchemaStep[] = [true, false]
    .filter((unique) => (unique ? old.unique : old.index))
    .map((unique) => ({ kind: 'drop-index', resource, field, unique }) as const);
  return old.search ? [...drops, { kind: 'drop-search-index', resource, field }] : drops;
}

function columnAdds(resource: ResourceDefinition, name: string): SchemaStep[] {
  const field = resource.fieldsByName.get(name)!;
  const steps: SchemaStep[] = [{ kind: 'add-column', resource: resource.name, field }];
  if (field.unique) steps.push({ kind: 'create-index', resource: resource.name, field: name, unique: true });
  if (field.index) steps.push({ kind: 'create-index', resource: resource.name, field: name, unique: false });
  if (resource.search.includes(name)) steps.push({ kind: 'create-search-index', resource: resource.name, field: name });
  return steps;
}

/** A schema step in words, for start-up logs and sync errors. */
export function describeStep(step: SchemaStep): string {
  switch (step.kind) {
    case 'create-table':
      return `created table ${step.resource.name}`;
    case 'add-column':
      return `added field ${step.resource}.${step.field.name}`;
    case 'drop-table':
      return `dropped table ${step.resource}`;
    case 'rename-column':
      return `renamed field ${step.resource}.${step.from} to ${step.to} (values kept)`;
    default:
      return `${step.kind.replace('-', ' ')} ${step.resource}.${step.field}${'unique' in step && step.unique ? ' (unique)' : ''}`;
  }
}
