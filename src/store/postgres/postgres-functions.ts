import { FOLD_FUNCTION } from '../../core/fold.js';

/**
 * SQL functions Restwell's shared queries call, created with Restwell's own tables. `rw_fold` is
 * core/fold.ts in SQL: Unicode lower case by ICU's root locale (the `und-x-icu` collation) with
 * the final sigma folded to σ. Columns collate "C", under which `lower()` would fold ASCII only.
 * A server built without ICU has no `und-x-icu`: it then folds by the database's default collation
 * (ASCII only under a C locale), as the README says. IMMUTABLE and in SQL, so the
 * planner inlines it and a trigram index on `rw_fold(column)` serves `rw_fold(column) LIKE …`.
 */
export const POSTGRES_FUNCTIONS = `
DO $rw$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
    CREATE OR REPLACE FUNCTION ${FOLD_FUNCTION}(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $f$ SELECT replace(lower(t COLLATE "und-x-icu"), 'ς', 'σ') $f$;
  ELSE
    CREATE OR REPLACE FUNCTION ${FOLD_FUNCTION}(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $f$ SELECT replace(lower(t COLLATE "default"), 'ς', 'σ') $f$;
  END IF;
END $rw$;
`;

/**
 * The trigram index of a search field: GIN over `rw_fold(column)` with pg_trgm's operators, which
 * serves `rw_fold(column) LIKE '%…%'` (`q=`, icontains, istartsWith). pg_trgm is a contrib
 * extension, created when the role may (in `public` when it can, so dropping one Restwell schema
 * never drops it from under another), and its operator class is named by the schema it is in.
 * Where it is absent or not allowed the index is skipped with a NOTICE and those searches scan:
 * correct, only slower. The sync never fails for it. Names are validated identifiers (the config
 * patterns allow no quotes), quoted again by format().
 */
export function trigramIndex(table: string, field: string, name: string): string {
  return `
DO $rw$ DECLARE trgm name; BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    BEGIN CREATE EXTENSION pg_trgm SCHEMA public;
    EXCEPTION WHEN OTHERS THEN
      BEGIN CREATE EXTENSION pg_trgm; EXCEPTION WHEN OTHERS THEN NULL; END;
    END;
  END IF;
  SELECT extnamespace::regnamespace::name INTO trgm FROM pg_extension WHERE extname = 'pg_trgm';
  IF trgm IS NULL THEN
    RAISE NOTICE 'restwell: pg_trgm is not available, so ${table}.${field} has no search index: q= and icontains scan it';
  ELSE
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I USING gin (${FOLD_FUNCTION}(%I) %I.gin_trgm_ops)', '${name}', '${table}', '${field}', trgm);
  END IF;
END $rw$;`;
}
