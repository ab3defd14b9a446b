import { CompiledQuery } from 'kysely';
import type { ClaimResult } from '../engine.js';
import { entryOf, type IdempotencyClaim } from '../idempotency.js';
import type { SqliteStatements } from './sqlite-statements.js';

/**
 * Claims a key inside a write job: the job holds SQLite's write lock, so reading the entry and
 * then taking it (new, or one whose lease ran out) cannot race another claimant.
 */
export function claimKey(s: SqliteStatements, claim: IdempotencyClaim): ClaimResult {
  const [row] = s.rows(CompiledQuery.raw('SELECT fingerprint, state, response, applied, expires_at FROM _rw_idempotency WHERE scope = ? AND key = ?', [claim.scope, claim.key]));
  if (row && row.expires_at > new Date().toISOString()) return { claimed: false, entry: entryOf(row) };
  s.run(
    CompiledQuery.raw(
      `INSERT INTO _rw_idempotency (scope, key, fingerprint, state, response, expires_at, claim_id, applied) VALUES (?, ?, ?, 'in-flight', NULL, ?, ?, NULL)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in-flight', response = NULL, expires_at = excluded.expires_at,
         claim_id = excluded.claim_id, applied = NULL`,
      [claim.scope, claim.key, claim.fingerprint, claim.expiresAt, claim.id],
    ),
  );
  return { claimed: true };
}
