import { sql } from 'kysely';
import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { step, type Flow } from './flow.js';
import type { StoredShape } from './schema-plan.js';
import type { Statements } from './statements.js';

/** A required field that existing records have no value for: a new field, or one that just became required. */
export interface RequiredGap {
  resource: ResourceDefinition;
  field: FieldDefinition;
  /** Existing records without a value. */
  rows: number;
}

/**
 * The required fields existing records lack a value for. Only fields that are required now and
 * were not at the last sync are looked at (shapes stored before `required` was recorded count as
 * not required, so they are looked at once): a new column, or a retyped one (recreated empty), is
 * empty in every existing record; an existing column is missing where it is NULL. A table created
 * or recreated by this sync has no records.
 */
export function* findRequiredGaps(s: Statements, stored: Map<string, StoredShape>, wanted: ResourceDefinition[]): Flow<RequiredGap[]> {
  const gaps: RequiredGap[] = [];
  for (const resource of wanted) {
    const before = stored.get(resource.name);
    if (!before || before.idType !== resource.idType) continue;
    for (const field of resource.fields) {
      if (!field.required) continue;
      const old = before.fields[field.name];
      const emptyColumn = !old || old.type !== field.type || old.to !== field.to;
      if (!emptyColumn && old.required) continue;
      let query = s.sql.selectFrom(resource.name).select(sql<number>`count(*)`.as('n'));
      if (!emptyColumn) query = query.where(field.name, 'is', null);
      const [row] = yield* step(s.rows(query.compile()));
      const rows = Number(row?.n ?? 0);
      if (rows > 0) gaps.push({ resource, field, rows });
    }
  }
  return gaps;
}

/** Why a gap without a default stops the sync, and the two ways out. */
export function describeRequiredGap({ resource, field, rows }: RequiredGap): string {
  const records = `${rows} existing record${rows === 1 ? '' : 's'} of ${resource.name}`;
  return (
    `resources.${resource.name}.fields.${field.name}: is required, but ${records} ${rows === 1 ? 'has' : 'have'} no value for it. ` +
    `Either give the field a \`default\` (existing records are filled in with it), or fill in those records (or make the field optional) before requiring it`
  );
}

/**
 * Fills the gaps of one resource with their fields' defaults, in one statement: every record
 * lacking a value gets the default, and (once, however many fields it lacked) a new version and
 * updatedAt, since its representation and so its ETag change. Runs inside the sync's transaction,
 * after the DDL; no event is written (a schema change, not a record write). Returns the lines the
 * sync reports, one per field.
 */
export function* backfillRequiredGaps(s: Statements, gaps: RequiredGap[]): Flow<string[]> {
  if (!gaps.length) return [];
  const { resource } = gaps[0];
  const set: Record<string, unknown> = { _version: sql`_version + 1`, _updated_at: new Date().toISOString() };
  for (const { field } of gaps) set[field.name] = sql`coalesce(${sql.ref(field.name)}, ${s.codec.encode(field, field.default)})`;
  const update = s.sql.updateTable(resource.name).set(set).where((eb) => eb.or(gaps.map((g) => eb(g.field.name, 'is', null))));
  yield* step(s.run(update.compile()));
  return gaps.map(({ field, rows }) => {
    let shown = JSON.stringify(field.default);
    if (shown.length > 60) shown = `${shown.slice(0, 57)}…`;
    return `back-filled ${resource.name}.${field.name} with its default ${shown} in ${rows} existing record${rows === 1 ? '' : 's'} (now required)`;
  });
}
