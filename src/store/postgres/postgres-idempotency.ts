import type pg from 'pg';
import type { ClaimResult } from '../engine.js';
import { entryOf, type IdempotencyClaim } from '../idempotency.js';

/**
 * Claims a key, race-free across nodes: the insert either creates the claim, takes over an
 * expired one, or (for a live one) does nothing; PostgreSQL makes a concurrent insert of the same
 * key wait for the first to commit, so exactly one claimant wins. A loser then reads the entry.
 */
export async function claimKey(pool: pg.Pool, c: IdempotencyClaim): Promise<ClaimResult> {
  // The entry read can miss only if its claim was released (deleted) in between; then claim again.
  for (let attempt = 0; ; attempt++) {
    const now = new Date().toISOString();
    const won = await pool.query(
      `INSERT INTO _rw_idempotency (scope, key, fingerprint, state, response, expires_at, claim_id, applied) VALUES ($1, $2, $3, 'in-flight', NULL, $4, $6, NULL)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in-flight', response = NULL, expires_at = excluded.expires_at,
         claim_id = excluded.claim_id, applied = NULL
       WHERE _rw_idempotency.expires_at <= $5`,
      [c.scope, c.key, c.fingerprint, c.expiresAt, now, c.id],
    );
    if (won.rowCount) return { claimed: true };
    const { rows } = await pool.query('SELECT fingerprint, state, response, applied FROM _rw_idempotency WHERE scope = $1 AND key = $2', [c.scope, c.key]);
    if (rows[0]) return { claimed: false, entry: entryOf(rows[0]) };
    if (attempt >= 3) return { claimed: false, entry: { fingerprint: c.fingerprint, state: 'in-flight' } };
  }
}
