import { FOLD_FUNCTION } from '../../core/fold.js';

/**
 * SQL functions Restwell's shared queries call, created with Restwell's own tables. `rw_fold` is
 * core/fold.ts in SQL: Unicode lower case by ICU's root locale (the `und-x-icu` collation) with
 * the final sigma folded to σ. Columns collate "C", under which `lower()` would fold ASCII only.
 * A server built without ICU has no `und-x-icu`: it then folds by the database's default collation
 * (ASCII only under a C locale), and `restwell` says so in the README. IMMUTABLE and in SQL, so the
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
