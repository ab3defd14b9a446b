import type { Database } from 'better-sqlite3';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { FOLD_FUNCTION } from '../../core/fold.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { SearchIndexSql } from '../list-sql.js';
import { searchIndexName } from '../schema-plan.js';
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
 * Triggers keep it up to date in the write's own transaction; they call `rw_fold` and
 * `rw_search_tokens`, so a tool that writes a search field must register those functions. A write
 * does not insert into FTS5 directly: a statement with triggers runs under a statement savepoint,
 * and FTS5 writes out its pending terms as a new segment at every savepoint, which made each POST
 * cost ~35 µs more per search field. The folded text goes to a small plain table (`…_p`) instead,
 * moved into FTS5 in one statement once it holds PENDING_ROWS rows; searches read both (the pending
 * rows by `instr`).
 */
const PENDING_ROWS = 256;

const TRIGGERS = ['ai', 'ad', 'au'] as const;

function triggerName(table: string, field: string, kind: (typeof TRIGGERS)[number]): string {
  return `${searchIndexName(table, field)}_${kind}`;
}

/** The plain table of folded values not yet moved into the FTS5 table. */
function pendingName(table: string, field: string): string {
  return `${searchIndexName(table, field)}_p`;
}

/** The FTS5 table of a field's search index, as created now: reconcileSearchIndexes rebuilds one defined otherwise. */
function ftsDefinition(fts: string): string {
  return `CREATE VIRTUAL TABLE "${fts}" USING fts5(v, content='', contentless_delete=1, detail=none, tokenize='ascii')`;
}

/** The statements that create (and fill) a field's search index, replacing any left behind. */
export function createSearchIndex(table: string, field: string): string[] {
  const fts = searchIndexName(table, field);
  const pending = pendingName(table, field);
  const folded = (row: 'new' | 'old') => `${FOLD_FUNCTION}(${row}."${field}")`;
  return [
    ...dropSearchIndex(table, field),
    ftsDefinition(fts),
    `INSERT INTO "${fts}" (rowid, v) SELECT rowid, ${SEARCH_TOKENS_FUNCTION}(${FOLD_FUNCTION}("${field}")) FROM "${table}" WHERE "${field}" IS NOT NULL`,
    // One segment instead of the many a large fill leaves: searches over 1M rows ran 2-3x faster.
    `INSERT INTO "${fts}" ("${fts}") VALUES ('optimize')`,
    `CREATE TABLE "${pending}" (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`,
    `CREATE TRIGGER "${pending}f" AFTER INSERT ON "${pending}" WHEN (SELECT count(*) FROM "${pending}") >= ${PENDING_ROWS} BEGIN
  INSERT INTO "${fts}" (rowid, v) SELECT id, ${SEARCH_TOKENS_FUNCTION}(v) FROM "${pending}";
  DELETE FROM "${pending}"; END`,
    `CREATE TRIGGER "${triggerName(table, field, 'ai')}" AFTER INSERT ON "${table}" WHEN new."${field}" IS NOT NULL BEGIN
  INSERT INTO "${pending}" (id, v) VALUES (new.rowid, ${folded('new')}); END`,
    `CREATE TRIGGER "${triggerName(table, field, 'ad')}" AFTER DELETE ON "${table}" WHEN old."${field}" IS NOT NULL BEGIN
  DELETE FROM "${pending}" WHERE id = old.rowid;
  DELETE FROM "${fts}" WHERE rowid = old.rowid; END`,
    `CREATE TRIGGER "${triggerName(table, field, 'au')}" AFTER UPDATE OF "${field}" ON "${table}" WHEN old."${field}" IS NOT new."${field}" BEGIN
  DELETE FROM "${pending}" WHERE id = old.rowid;
  DELETE FROM "${fts}" WHERE rowid = old.rowid;
  INSERT INTO "${pending}" (id, v) SELECT new.rowid, ${folded('new')} WHERE new."${field}" IS NOT NULL; END`,
  ];
}

/** The statements that drop a field's search index, its pending rows and its triggers (none fails when absent). */
export function dropSearchIndex(table: string, field: string): string[] {
  return [
    ...TRIGGERS.map((kind) => `DROP TRIGGER IF EXISTS "${triggerName(table, field, kind)}"`),
    `DROP TABLE IF EXISTS "${pendingName(table, field)}"`,
    `DROP TABLE IF EXISTS "${searchIndexName(table, field)}"`,
  ];
}

/** How SQLite list queries narrow a search with the indexes above (see compileListQuery). */
export const sqliteSearchIndexSql: SearchIndexSql = {
  query: searchTokenQuery,
  candidates(table: string, fields: string[], query: unknown, folded: unknown): RawBuilder<SqlBool> {
    const each = fields.flatMap((f) => {
      const fts = sql.id(searchIndexName(table, f));
      return [sql`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${query}`, sql`SELECT id FROM ${sql.id(pendingName(table, f))} WHERE instr(v, ${folded}) > 0`];
    });
    return sql<SqlBool>`${sql.id(table)}.rowid IN (${sql.join(each, sql` UNION ALL `)})`;
  },
  // UNION of arms each in rowid order (FTS5 and an INTEGER PRIMARY KEY deliver it): SQLite merges them as they stream.
  ordered(table: string, fields: string[], query: unknown, folded: unknown, from?: unknown): RawBuilder<unknown> {
    const past = (key: string) => (from === undefined ? sql`` : sql` AND ${sql.raw(key)} > ${from}`);
    const each = fields.flatMap((f) => {
      const fts = sql.id(searchIndexName(table, f));
      return [sql`SELECT rowid AS r FROM ${fts} WHERE ${fts} MATCH ${query}${past('rowid')}`, sql`SELECT id FROM ${sql.id(pendingName(table, f))} WHERE instr(v, ${folded}) > 0${past('id')}`];
    });
    return sql`(${sql.join(each, sql` UNION `)} ORDER BY 1)`;
  },
};

/**
 * Makes the search indexes match the resources: creates those missing (a database synced before
 * SQLite had them, or a renamed field, whose old index is then dropped) and drops those of fields
 * no longer searched. Runs inside the sync's transaction, after its steps. Returns what it did, in words.
 */
export function reconcileSearchIndexes(db: Database, resources: ResourceDefinition[]): string[] {
  const done: string[] = [];
  for (const r of resources) {
    // An index is found by its insert trigger, which SQLite files under the resource's table.
    const suffix = '_s_ai';
    const existing = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?").all(r.name) as Array<{ name: string }>)
      .map((t) => t.name)
      .filter((n) => n.startsWith(`rw_${r.name}_`) && n.endsWith(suffix))
      .map((n) => n.slice(`rw_${r.name}_`.length, -suffix.length));
    // Complete: its pending table exists (made last), and its FTS5 table is defined as now (an
    // index of FTS5 trigrams, from before the 4-grams, is rebuilt once).
    const defined = (name: string) => (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) as { sql: string } | undefined)?.sql;
    const complete = (field: string) => defined(pendingName(r.name, field)) !== undefined && defined(searchIndexName(r.name, field)) === ftsDefinition(searchIndexName(r.name, field));
    for (const field of existing) {
      if (r.search.includes(field)) continue;
      for (const s of dropSearchIndex(r.name, field)) db.exec(s);
      done.push(`drop search index ${r.name}.${field}`);
    }
    for (const field of r.search) {
      if (existing.includes(field) && complete(field)) continue;
      for (const s of createSearchIndex(r.name, field)) db.exec(s);
      done.push(`create search index ${r.name}.${field}`);
    }
  }
  return done;
}
