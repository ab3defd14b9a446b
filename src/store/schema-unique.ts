import { sql, type RawBuilder } from 'kysely';
import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import type { StoredShape } from './schema-plan.js';
import type { Statements } from './statements.js';

/** Existing records that share a value of a field about to become unique. */
export interface UniqueClash {
  resource: ResourceDefinition;
  field: FieldDefinition;
  /** Distinct values held by more than one record. */
  values: number;
  /** Records holding one of those values. */
  rows: number;
  /** The value held most often (as the API shows it), how many records hold it, and the ids of the first ones. */
  example: { value: unknown; count: number; ids: unknown[] };
}

/** How many ids of the example value a message names. */
const SHOWN_IDS = 5;

/**
 * The fields unique now, and not at the last sync, whose existing values are not: building their
 * unique index would fail on the database's own error. Only columns that keep their values are
 * looked at (a new or retyped column is empty; NULLs never clash, as in the index). json values
 * are compared by their text, as their index is.
 */
export function* findUniqueClashes(s: Statements, stored: Map<string, StoredShape>, wanted: ResourceDefinition[]): Flow<UniqueClash[]> {
  const clashes: UniqueClash[] = [];
  for (const resource of wanted) {
    const before = stored.get(resource.name);
    if (!before || before.idType !== resource.idType) continue;
    for (const field of resource.fields) {
      const old = before.fields[field.name];
      if (!field.unique || !old || old.unique || old.type !== field.type || old.to !== field.to) continue;
      const key: RawBuilder<unknown> = field.type === 'json' ? sql`cast(${sql.ref(field.name)} as text)` : sql`${sql.ref(field.name)}`;
      const groups = s.sql
        .selectFrom(resource.name)
        .select([key.as('k'), sql<number>`count(*)`.as('n')])
        .where(field.name, 'is not', null)
        .groupBy(key)
        .having(sql`count(*)`, '>', 1);
      const [totals] = yield* step(s.rows(s.sql.selectFrom(groups.as('d')).select([sql<number>`count(*)`.as('values'), sql<number>`coalesce(sum(n), 0)`.as('rows'), sql<number>`coalesce(max(n), 0)`.as('most')]).compile()));
      const values = Number(totals?.values ?? 0);
      if (!values) continue;
      // The value held most often (the smallest of those on a tie), and the first records holding it.
      const top = groups.clearSelect().select(key.as('k')).orderBy(sql`count(*)`, 'desc').orderBy(key).limit(1);
      const holders = yield* step(
        s.rows(s.sql.selectFrom(resource.name).select(['id', sql.ref(field.name).as('v')]).where(key, '=', top).orderBy('id').limit(SHOWN_IDS).compile()),
      );
      clashes.push({ resource, field, values, rows: Number(totals.rows), example: { value: s.codec.decode(field, holders[0]?.v), count: Number(totals.most), ids: holders.map((h) => h.id) } });
    }
  }
  return clashes;
}

/** Why a clash stops the sync: how many duplicates, an example, and the two ways out. */
export function describeUniqueClash({ resource, field, values, rows, example }: UniqueClash): string {
  let shown = JSON.stringify(example.value);
  if (shown.length > 60) shown = `${shown.slice(0, 57)}…`;
  const ids = example.ids.map((id) => `/${resource.name}/${id}`);
  const more = example.count > ids.length ? ` (and ${example.count - ids.length} more)` : '';
  const holders = more ? ids.join(', ') : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
  return (
    `resources.${resource.name}.fields.${field.name}: is unique, but existing records of ${resource.name} share values: ` +
    `${values} value${values === 1 ? ' is' : 's are'} held by more than one record (${rows} records in all), e.g. ${shown} by ${holders}${more}. ` +
    `Either change or delete the duplicates through the API (PATCH or DELETE those records) so each value is held once, or leave out \`unique\``
  );
}
