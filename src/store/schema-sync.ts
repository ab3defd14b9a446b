import type { ResourceDefinition } from '../core/resource.js';
import { SchemaSyncError } from './errors.js';
import { step, type Flow, type Maybe } from './flow.js';
import { describeStep, planSchema, shapeOf, type SchemaStep, type StoredShape } from './schema-plan.js';
import { describeLoss } from './schema-losses.js';
import { planRenames } from './schema-rename.js';
import { backfillRequiredGaps, describeRequiredGap, findRequiredGaps } from './schema-required.js';
import { describeUniqueClash, findUniqueClashes } from './schema-unique.js';
import type { Statements } from './statements.js';
import type { SyncReport } from './store.js';

/** Statements that can also run DDL, inside the transaction a sync runs in. */
export interface SchemaStatements extends Statements {
  exec(ddl: string): Maybe<unknown>;
}

/**
 * Brings the tables in line with the resources, as one transaction (the caller's): compares the
 * shapes stored at the last sync with the resources, refuses what would lose data unless allowed,
 * renames the fields whose `renamedFrom` is still stored (first, so everything after sees the new
 * names), refuses a newly required field that existing records lack unless it has a default, and
 * a newly unique field whose existing values repeat, counts what an allowed destructive change
 * deletes (reported as `destructive`), runs each step's DDL as `ddl` spells it for the engine (in
 * the order it returns), back-fills required fields from their defaults, and stores the new shapes.
 * Whatever it refuses, it refuses before the transaction commits: nothing is half-applied.
 */
export function* syncSchema(
  s: SchemaStatements,
  resources: ResourceDefinition[],
  allowDestructive: boolean,
  ddl: (steps: SchemaStep[]) => Array<{ step: SchemaStep; statements: string[] }>,
): Flow<SyncReport> {
  const shapes = yield* step(s.rows(s.sql.selectFrom('_rw_schema').select(['resource', 'shape']).compile()));
  const renames = planRenames(new Map<string, StoredShape>(shapes.map((r) => [r.resource, JSON.parse(r.shape)])), resources);
  const plan = planSchema(renames.stored, resources, allowDestructive);
  if (renames.refused.length) throw new SchemaSyncError([...renames.refused, ...plan.refused], plan.refused.length > 0);
  const applied = yield* applySteps(s, ddl(renames.steps));
  // A field required now that existing records lack: filled from its default, else refused.
  const gaps = yield* findRequiredGaps(s, renames.stored, resources);
  const unfillable = gaps.filter((g) => g.field.default === undefined).map(describeRequiredGap);
  const clashes = (yield* findUniqueClashes(s, renames.stored, resources)).map(describeUniqueClash);
  if (plan.refused.length || unfillable.length || clashes.length) throw new SchemaSyncError([...plan.refused, ...unfillable, ...clashes], plan.refused.length > 0);
  const destructive: string[] = [];
  for (const loss of plan.losses) destructive.push(yield* describeLoss(s, loss));
  applied.push(...(yield* applySteps(s, ddl(plan.steps))));
  for (const r of resources) applied.push(...(yield* backfillRequiredGaps(s, gaps.filter((g) => g.resource === r))));
  for (const r of resources) {
    const row = { resource: r.name, shape: JSON.stringify(shapeOf(r)) };
    yield* step(s.run(s.sql.insertInto('_rw_schema').values(row).onConflict((oc) => oc.column('resource').doUpdateSet({ shape: row.shape })).compile()));
  }
  return { applied, destructive, notes: plan.notes };
}

/** Runs the steps' DDL in order; returns them in words. A statement the database rejects stops the sync, naming its step. */
function* applySteps(s: SchemaStatements, steps: Array<{ step: SchemaStep; statements: string[] }>): Flow<string[]> {
  const applied: string[] = [];
  for (const { step: schemaStep, statements } of steps) {
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
  return applied;
}
