import type { Database } from 'better-sqlite3';
import { fold, FOLD_FUNCTION } from '../../core/fold.js';
import { SEARCH_TOKENS_FUNCTION, searchTokens } from './sqlite-search-tokens.js';

/**
 * SQL functions Restwell's shared queries call, registered on the connection. SQLite's own
 * `lower()` folds ASCII only, so `rw_fold` is core/fold.ts itself: the same folding PostgreSQL's
 * `rw_fold` does (see postgres-functions.ts); `rw_search_tokens` is the search indexes' tokenizer
 * (sqlite-search-tokens.ts). Only the triggers that keep search indexes up to date call them
 * (sqlite-search-index.ts): any SQLite tool can read the database, and one that writes a search
 * field must register both.
 */
export function registerSqliteFunctions(db: Database): void {
  db.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? fold(value) : value));
  db.function(SEARCH_TOKENS_FUNCTION, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? searchTokens(value) : value));
}

/**
 * SQL equal to `rw_fold(expr)` for every value, calling into JavaScript only for text that is not
 * plain ASCII: SQLite's `lower()` folds ASCII exactly as core/fold.ts does, and `length` (characters
 * before any NUL) equals `octet_length` (bytes) only for ASCII text without a NUL. Anything but text
 * comes back as it is, as `rw_fold` returns it. The search index's triggers fold every written value:
 * a call into JavaScript each cost ~1 µs of a POST.
 */
export function foldSql(expr: string): string {
  return `CASE WHEN typeof(${expr}) <> 'text' THEN ${expr} WHEN length(${expr}) = octet_length(${expr}) THEN lower(${expr}) ELSE ${FOLD_FUNCTION}(${expr}) END`;
}
