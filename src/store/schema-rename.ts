import { earlierNames } from '../config/check-renames.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { SchemaStep, StoredShape } from './schema-plan.js';

/** The renames a sync applies first, the ones it refuses, and the stored shapes as they are once renamed. */
export interface RenamePlan {
  steps: SchemaStep[];
  refused: string[];
  /** The shapes with each renamed field under its new name, for the rest of the plan to compare with. */
  stored: Map<string, StoredShape>;
}

/**
 * The fields (`renamedFrom`) whose stored column still has an earlier name: that column is renamed,
 * values and all. Index names embed the field's name, so its indexes are dropped under the old name
 * and built again under the new one (SQLite cannot rename an index); whatever else the field's
 * config changes is left to the ordinary plan, which sees the field under its new name. Nothing is
 * done when only the new name is stored (already renamed: a sync that finds nothing to do) or when
 * neither is (a new field). When the new name is stored as well, or several earlier names are, the
 * rename is refused: the values would have two owners. A table whose id type changes is recreated
 * empty, so there is nothing to rename in it.
 */
export function planRenames(stored: Map<string, StoredShape>, wanted: ResourceDefinition[]): RenamePlan {
  const plan: RenamePlan = { steps: [], refused: [], stored: new Map(stored) };
  for (const resource of wanted) {
    const before = stored.get(resource.name);
    if (!before || before.idType !== resource.idType) continue;
    const fields = { ...before.fields };
    for (const field of resource.fields) {
      const found = earlierNames(field).filter((old) => before.fields[old]);
      if (!found.length) continue;
      const at = `resources.${resource.name}.fields.${field.name}.renamedFrom`;
      if (before.fields[field.name] || found.length > 1) {
        const names = [...found, ...(before.fields[field.name] ? [field.name] : [])];
        plan.refused.push(
          `${at}: the database holds the fields ${names.join(' and ')} of ${resource.name}, each with its own values, so none can be renamed to ${field.name}. ` +
            `Either remove renamedFrom, keep ${found.join(' and ')} in the config while you move ${found.length > 1 ? 'their' : 'its'} values into ${field.name} through the API, then remove ${found.length > 1 ? 'them' : 'it'} (which needs allowDestructiveMigrations); ` +
            `or, if the values of ${found.join(' and ')} are not wanted, remove renamedFrom and set allowDestructiveMigrations to drop ${found.length > 1 ? 'them' : 'it'}`,
        );
        // The sync stops on this; the old fields are left out of the comparison so it does not also report them as removed.
        for (const old of found) delete fields[old];
        continue;
      }
      const [from] = found;
      const old = before.fields[from];
      plan.steps.push(
        ...indexSteps('drop', resource.name, from, old),
        { kind: 'rename-column', resource: resource.name, from, to: field.name },
        ...indexSteps('create', resource.name, field.name, old),
      );
      delete fields[from];
      fields[field.name] = old;
    }
    plan.stored.set(resource.name, { ...before, fields });
  }
  return plan;
}

/** The steps that drop (or build) a stored field's indexes under the given name. */
function indexSteps(how: 'drop' | 'create', resource: string, field: string, shape: StoredShape['fields'][string]): SchemaStep[] {
  const steps: SchemaStep[] = [];
  if (shape.unique) steps.push({ kind: `${how}-index`, resource, field, unique: true });
  if (shape.index) steps.push({ kind: `${how}-index`, resource, field, unique: false });
  if (shape.search) steps.push({ kind: `${how}-search-index`, resource, field });
  return steps;
}
