import type { ResourceDefinition } from '../core/resource.js';
import { SchemaSyncError } from './errors.js';
import { step, type Flow, type Maybe } from './flow.js';
import { describeStep, planSchema, shapeOf, type SchemaStep, type StoredShape } from './schema-plan.js';
import { backfillRequiredGaps, describeRequiredGap, findRequiredGaps } from './schema-required.js';
import type { Statements } from './statements.js';
import type { SyncReport } from './store.js';

/** Statements that can also run DDL, inside the transaction a sync runs in. */
export interface SchemaStatements extends Statements {
  exec(ddl: string): Maybe<unknown>;
}

/**
 * Brings the tables in line with the resources, as one transaction (the caller's): compares the
 * shapes stored at the last sync with the resources, refuses what would lose data unless allowed,
 * refuses a newly required field that existing records lack unless it has a default, runs each
 * step's DDL as `ddl` spells it for the engine (in the order it returns), back-fills such fields
 * from their defaults, and stores the new shapes.
 */
export function* syncSchema(
  s: SchemaStatements,
  resources: ResourceDefinition[],
  allowDestructive: boolean,
  ddl: (steps: SchemaStep[]) => Array<{ step: SchemaStep; statements: string[] }>,
): Flow<SyncReport> {
  const shapes = yield* step(s.rows(s.sql.selectFrom('_rw_schema').select(['resource', 'shape']).compile()));
  const stored = new Map<string, StoredShape>(shapes.map((r) => [r.resource, JSON.parse(r.shape)]));
  const plan = planSchema(stored, resources, allowDestructive);
  // A field required now that existing records lack: filled from its default, else refused.
  const gaps = yield* findRequiredGaps(s, stored, resources);
  const unfillable = gaps.filter((g) => g.field.default === undefined).map(describeRequiredGap);
  if (plan.refused.length || unfillable.length) throw new SchemaSyncError([...plan.refused, ...unfillable], plan.refused.length > 0);
  const applied: string[] = [];
  for (const { step: schemaStep, statements } of ddl(plan.steps)) {
    for (const statement of statements) {
      try {
        yield* step(s.exec(statement));
      } catch (err) {
        throw new SchemaSyncError([`${describeStep(schemaStep)}: ${(err as Error).message}`], false);
      }
    }
    // A step the engine has no DDL for (a search index on SQLite) changed nothing worth reporting.
    if (statements.length) applied.push(describeStep(schemaStep));
  }
  for (const r of resources) applied.push(...(yield* backfillRequiredGaps(s, gaps.filter((g) => g.resource === r))));
  for (const r of resources) {
    const row = { resource: r.name, shape: JSON.stringify(shapeOf(r)) };
    yield* step(s.run(s.sql.insertInto('_rw_schema').values(row).onConflict((oc) => oc.column('resource').doUpdateSet({ shape: row.shape })).compile()));
  }
  return { applied, notes: plan.notes };
}
