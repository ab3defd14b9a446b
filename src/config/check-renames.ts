import type { FieldConfig, ResourceConfig } from './types.js';

/** The earlier names a field lists in `renamedFrom`, as a list (none when it has no such key). */
export function earlierNames(field: Pick<FieldConfig, 'renamedFrom'>): string[] {
  const from = field.renamedFrom;
  return from === undefined ? [] : typeof from === 'string' ? [from] : from;
}

/**
 * What the config schema cannot say about `renamedFrom` (already schema-valid), one message per
 * problem: a field naming itself, an earlier name that is still a field of the resource (its values
 * would have two owners), and an earlier name two fields claim.
 */
export function checkRenames(resources: Record<string, ResourceConfig>): string[] {
  const problems: string[] = [];
  for (const [rname, resource] of Object.entries(resources)) {
    const fields = resource.fields ?? {};
    const claimedBy = new Map<string, string>();
    for (const [fname, field] of Object.entries(fields)) {
      const at = `resources.${rname}.fields.${fname}.renamedFrom`;
      for (const old of earlierNames(field)) {
        if (old === fname) {
          problems.push(`${at}: "${old}" is this field's own name; list only the names it had before, or remove renamedFrom`);
        } else if (fields[old]) {
          problems.push(
            `${at}: "${old}" is still a field of ${rname}, so its values cannot move to ${fname}; ` +
              `remove the field ${old} from the config to rename it, or remove renamedFrom if ${fname} is a field of its own`,
          );
        } else if (claimedBy.has(old)) {
          problems.push(`${at}: "${old}" is also the earlier name of ${claimedBy.get(old)}; a stored field can be renamed to one field only`);
        } else {
          claimedBy.set(old, fname);
        }
      }
    }
  }
  return problems;
}
