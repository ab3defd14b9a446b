import type { Database } from 'better-sqlite3';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { ResourceDefinition } from '../../core/resource.js';
import type { SearchIndexSql } from '../list-sql.js';
import { searchIndexName } from '../schema-plan.js';
import { foldSql } from './sqlite-functions.js';
import { SEARCH_TOKENS_FUNCTION, searchTokenQuery } from './sqlite-search-tokens.js';

/**
 * SQLite's search index of a field: an FTS5 table over the field's folded text (`rw_fold`,
 * core/fold.ts), keyed by the record's rowid, whose tokens are the text's 3-grams and 4-grams
 * (searchTokens). It only narrows a search to candidate rows: the list query keeps the exact
 * `rw_fold(column) LIKE …` test on them, so the results are those of a scan whatever the index
 * holds. Contentless and `detail=none`: the table stores token → rowids only.
 *
 * Why 4-grams: with 3-grams alone (FTS5's trigram tokenizer) a needle of digits ANDs trigram lists
 * of thousands of rows each over 1M phone numbers (~4,000 rowids per digit trigram, ~20 ns each to
 * decode), where a digit 4-gram lists ~10 times fewer. The 3-grams stay for needles of 3 characters.
 *
 * Triggers keep it up to date in the write's own transaction; they call `rw_fold` (for text that is
 * not ASCII) and `rw_search_tokens`, so a tool that writes a search field must register those
 * functions. A write does not insert into FTS5 directly: a statement with triggers runs under a
 * statement savepoint, and FTS5 writes out its pending terms as a new segment at every savepoint,
 * which made each POST cost ~35 µs more per search field. A write's folded values go to one row of
 * a small plain table of the resource (`rw_<resource>_s_pending`, a column per search field, NULL
 * where nothing of that field is pending), moved into the FTS5 tables in one statement once it holds
 * PENDING_ROWS rows; searches read both (the pending rows by `instr`). One row per write, not one per
 * field: a POST of the bench's two search fields paid two inserts and two counts of pending rows.
 *
 * Who makes what: a field's FTS5 table and its update trigger are the field's (createSearchIndex);
 * the pending table and the triggers that insert and delete whole records name every search field
 * of the resource. reconcileSearchIndexes makes all of it after the schema plan's steps, whose only
 * search index step on SQLite is a field's drop, which drops the record triggers too (a column a
 * trigger names cannot be dropped) until reconcileSearchIndexes makes them again.
 */
const PENDING_ROWS = 256;

/** The plain table of a resource's folded values not yet moved into the FTS5 tables. */
function pendingName(table: string): string {
  return `rw_${table}_s_pending`;
}

/** The triggers of a whole record (insert, delete) and the one that moves the pending rows into FTS5. */
function recordTriggers(table: string): string[] {
  return ['ai', 'ad', 'move'].map((kind) => `${pendingName(table)}_${kind}`);
}

function updateTrigger(table: string, field: string): string {
  return `${searchIndexName(table, field)}_au`;
}

/** The FTS5 table of a field's search index, as created now: reconcileSearchIndexes rebuilds one defined otherwise. */
function ftsDefinition(fts: string): string {
  return `CREATE VIRTUAL TABLE "${fts}" USING fts5(v, content='', contentless_delete=1, detail=none, tokenize='ascii')`;
}

function pendingDefinition(table: string, fields: readonly string[]): string {
  return `CREATE TABLE "${pendingName(table)}" (id INTEGER PRIMARY KEY, ${fields.map((f) => `"${f}" TEXT`).join(', ')})`;
}

/** The statements that move the pending rows of `fields` (columns of the pending table) into their FTS5 tables. */
function movePending(table: string, fields: readonly string[]): string[] {
  return fields.map((f) => `INSERT INTO "${searchIndexName(table, f)}" (rowid, v) SELECT id, ${SEARCH_TOKENS_FUNCTION}("${f}") FROM "${pendingName(table)}" WHERE "${f}" IS NOT NULL`);
}

/** The record triggers of a resource over its search fields, as created now, in recordTriggers' order. */
function recordTriggerDefinitions(table: string, fields: readonly string[]): string[] {
  const pending = pendingName(table);
  const [insert, remove, move] = recordTriggers(table);
  const q = (f: string) => `"${f}"`;
  return [
    `CREATE TRIGGER "${insert}" AFTER INSERT ON "${table}" WHEN ${fields.map((f) => `new.${q(f)} IS NOT NULL`).join(' OR ')} BEGIN
  INSERT INTO "${pending}" (id, ${fields.map(q).join(', ')}) VALUES (new.rowid, ${fields.map((f) => foldSql(`new.${q(f)}`)).join(', ')}); END`,
    `CREATE TRIGGER "${remove}" AFTER DELETE ON "${table}" BEGIN
  DELETE FROM "${pending}" WHERE id = old.rowid;
  ${fields.map((f) => `DELETE FROM "${searchIndexName(table, f)}" WHERE rowid = old.rowid AND old.${q(f)} IS NOT NULL`).join(';\n  ')}; END`,
    `CREATE TRIGGER "${move}" AFTER INSERT ON "${pending}" WHEN (SELECT count(*) FROM "${pending}") >= ${PENDING_ROWS} BEGIN
  ${movePending(table, fields).join(';\n  ')};
  DELETE FROM "${pending}"; END`,
  ];
}

/** A field's update trigger, as created now. The pending row's other fields stay as they are (NULL: already in FTS5, or no value). */
function updateTriggerDefinition(table: string, field: string): string {
  const f = `"${field}"`;
  return `CREATE TRIGGER "${updateTrigger(table, field)}" AFTER UPDATE OF ${f} ON "${table}" WHEN old.${f} IS NOT new.${f} BEGIN
  DELETE FROM "${searchIndexName(table, field)}" WHERE rowid = old.rowid;
  INSERT INTO "${pendingName(table)}" (id, ${f}) VALUES (new.rowid, ${foldSql(`new.${f}`)}) ON CONFLICT (id) DO UPDATE SET ${f} = excluded.${f}; END`;
}

/**
 * The statements that create (and fill) a field's search index, replacing any left behind: its FTS5
 * table and its update trigger. The record triggers are dropped (dropSearchIndex), to be made again
 * over every search field by the caller (reconcileSearchIndexes, createSearchIndexes).
 */
function createSearchIndex(table: string, field: string): string[] {
  const fts = searchIndexName(table, field);
  return [
    ...dropSearchIndex(table, field),
    ftsDefinition(fts),
    `INSERT INTO "${fts}" (rowid, v) SELECT rowid, ${SEARCH_TOKENS_FUNCTION}(${foldSql(`"${field}"`)}) FROM "${table}" WHERE "${field}" IS NOT NULL`,
    // One segment instead of the many a large fill leaves: searches over 1M rows ran 2-3x faster.
    `INSERT INTO "${fts}" ("${fts}") VALUES ('optimize')`,
    updateTriggerDefinition(table, field),
  ];
}

/**
 * The statements that drop a field's search index and the record triggers naming it (none fails
 * when absent; a column a trigger names cannot be dropped); the pending table stays, with the other
 * fields' rows not yet moved into FTS5, until reconcileSearchIndexes remakes it. Also what an index
 * made before the pending table was one per resource left: its own pending table and triggers.
 */
export function dropSearchIndex(table: string, field: string): string[] {
  const fts = searchIndexName(table, field);
  return [
    ...recordTriggers(table).map((t) => `DROP TRIGGER IF EXISTS "${t}"`),
    ...dropFieldPending(fts),
    `DROP TABLE IF EXISTS "${fts}"`,
  ];
}

/** The field's own pending table and triggers, which an index made before there was one per resource had. */
function dropFieldPending(fts: string): string[] {
  return [...['ai', 'ad', 'au'].map((kind) => `DROP TRIGGER IF EXISTS "${fts}_${kind}"`), `DROP TABLE IF EXISTS "${fts}_p"`];
}

/** Every search index of a resource made afresh from its rows, with its pending table and triggers (a bulk load's end). */
export function createSearchIndexes(table: string, fields: readonly string[]): string[] {
  if (!fields.length) return [];
  return [...fields.flatMap((f) => createSearchIndex(table, f)), `DROP TABLE IF EXISTS "${pendingName(table)}"`, pendingDefinition(table, fields), ...recordTriggerDefinitions(table, fields)];
}

/** Every search index of a resource dropped, its pending rows too (a bulk load's start: the indexes are made afresh after). */
export function dropSearchIndexes(table: string, fields: readonly string[]): string[] {
  return [...fields.flatMap((f) => dropSearchIndex(table, f)), `DROP TABLE IF EXISTS "${pendingName(table)}"`];
}

/** How SQLite list queries narrow a search with the indexes above (see compileListQuery). */
export const sqliteSearchIndexSql: SearchIndexSql = {
  query: searchTokenQuery,
  candidates(table: string, fields: string[], query: unknown, folded: unknown): RawBuilder<SqlBool> {
    const each = fields.flatMap((f) => {
      const fts = sql.id(searchIndexName(table, f));
      return [sql`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${query}`, sql`SELECT id FROM ${sql.id(pendingName(table))} WHERE instr(${sql.id(f)}, ${folded}) > 0`];
    });
    return sql<SqlBool>`${sql.id(table)}.rowid IN (${sql.join(each, sql` UNION ALL `)})`;
  },
  // UNION of arms each in rowid order (FTS5 and an INTEGER PRIMARY KEY deliver it): SQLite merges them as they stream.
  ordered(table: string, fields: string[], query: unknown, folded: unknown, from?: unknown): RawBuilder<unknown> {
    const past = (key: string) => (from === undefined ? sql`` : sql` AND ${sql.raw(key)} > ${from}`);
    const each = fields.flatMap((f) => {
      const fts = sql.id(searchIndexName(table, f));
      return [sql`SELECT rowid AS r FROM ${fts} WHERE ${fts} MATCH ${query}${past('rowid')}`, sql`SELECT id FROM ${sql.id(pendingName(table))} WHERE instr(${sql.id(f)}, ${folded}) > 0${past('id')}`];
    });
    return sql`(${sql.join(each, sql` UNION `)} ORDER BY 1)`;
  },
};

/**
 * Makes the search indexes match the resources: creates those missing (a new resource or search
 * field, a database synced before SQLite had them, a renamed or retyped field, an index of FTS5
 * trigrams from before the 4-grams), drops those of fields no longer searched, and makes the
 * resource's pending table and record triggers over its search fields as defined now. An index kept
 * keeps its FTS5 table: what was pending for it (in a pending table about to be remade, or in the
 * field's own pending table of an index made before there was one per resource) is moved into it
 * first. Runs inside the sync's transaction, after its steps. Returns what it did, in words.
 */
export function reconcileSearchIndexes(db: Database, resources: ResourceDefinition[]): string[] {
  const done: string[] = [];
  const definition = (name: string) => db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string | undefined;
  const run = (statements: string[]) => statements.forEach((s) => db.exec(s));
  for (const r of resources) {
    // A field's index is found by its update trigger, which SQLite files under the resource's table.
    const [prefix, suffix] = [`rw_${r.name}_`, '_s_au'];
    const indexed = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?").pluck().all(r.name) as string[])
      .filter((n) => n.startsWith(prefix) && n.endsWith(suffix))
      .map((n) => n.slice(prefix.length, -suffix.length));
    for (const field of indexed.filter((f) => !r.search.includes(f))) {
      run(dropSearchIndex(r.name, field));
      done.push(`drop search index ${r.name}.${field}`);
    }
    const fts = (field: string) => searchIndexName(r.name, field);
    const kept = r.search.filter((f) => indexed.includes(f) && definition(fts(f)) === ftsDefinition(fts(f)));
    const pending = pendingName(r.name);
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(pending) as string[];
    for (const field of kept) {
      if (definition(`${fts(field)}_p`) === undefined) continue;
      db.exec(`INSERT INTO "${fts(field)}" (rowid, v) SELECT id, ${SEARCH_TOKENS_FUNCTION}(v) FROM "${fts(field)}_p"`);
      run(dropFieldPending(fts(field)));
    }
    if (columns.length && definition(pending) !== pendingDefinition(r.name, r.search)) {
      run(movePending(r.name, kept.filter((f) => columns.includes(f))));
      db.exec(`DROP TABLE "${pending}"`);
    }
    for (const field of r.search.filter((f) => !kept.includes(f))) {
      run(createSearchIndex(r.name, field));
      // Its FTS5 table now holds every row: a value still pending (a retyped field's old one) would be there twice.
      if (definition(pending) !== undefined) db.exec(`UPDATE "${pending}" SET "${field}" = NULL`);
      done.push(`create search index ${r.name}.${field}`);
    }
    if (!r.search.length) {
      db.exec(`DROP TABLE IF EXISTS "${pending}"`);
      continue;
    }
    if (definition(pending) === undefined) db.exec(pendingDefinition(r.name, r.search));
    const records = recordTriggerDefinitions(r.name, r.search);
    const triggers = [...r.search.map((f) => [updateTrigger(r.name, f), updateTriggerDefinition(r.name, f)] as const), ...recordTriggers(r.name).map((t, i) => [t, records[i]!] as const)];
    for (const [name, want] of triggers) if (definition(name) !== want) run([`DROP TRIGGER IF EXISTS "${name}"`, want]);
  }
  return done;
}
