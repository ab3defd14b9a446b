import type pg from 'pg';
import type { IdempotencyClaim, IdempotencyEntry } from '../idempotency.js';

type ClaimResult = { claimed: true } | { claimed: false; entry: IdempotencyEntry };

/**
 * Claims a key, race-free across nodes: the insert either creates the claim, takes over an
 * expired one, or (for a live one) does nothing; PostgreSQL makes a concurrent insert of the same
 * key wait for the first to commit, so exactly one claimant wins. A loser then reads the entry.
 */
export async function claim(pool: pg.Pool, c: IdempotencyClaim): Promise<ClaimResult> {
  // The entry read can miss only if its claim was released (deleted) in between; then claim again.
  for (let attempt = 0; ; attempt++) {
    const now = new Date().toISOString();
    const won = await pool.query(
      `INSERT INTO _rw_idempotency (scope, key, fingerprint, state, response, expires_at) VALUES ($1, $2, $3, 'in-flight', NULL, $4)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in-flight', response = NULL, expires_at = excluded.expires_at
       WHERE _rw_idempotency.expires_at <= $5`,
      [c.scope, c.key, c.fingerprint, c.expiresAt, now],
    );
    if (won.rowCount) return { claimed: true };
    const { rows } = await pool.query('SELECT fingerprint, state, response FROM _rw_idempotency WHERE scope = $1 AND key = $2', [c.scope, c.key]);
    if (rows[0]) return { claimed: false, entry: { fingerprint: rows[0].fingerprint, state: rows[0].state, response: rows[0].response ? JSON.parse(rows[0].response) : undefined } };
    if (attempt >= 3) return { claimed: false, entry: { fingerprint: c.fingerprint, state: 'in-flight' } };
  }
}

/** Stores the response of a claimed key until `expiresAt` (or releases the claim) and sweeps expired keys. */
export async function complete(pool: pg.Pool, scope: string, key: string, response: IdempotencyEntry['response'] | undefined, expiresAt?: string): Promise<void> {
  if (response) {
    await pool.query(`UPDATE _rw_idempotency SET state = 'complete', response = $1, expires_at = coalesce($2, expires_at) WHERE scope = $3 AND key = $4`, [
      JSON.stringify(response), expiresAt ?? null, scope, key,
    ]);
  } else {
    await pool.query('DELETE FROM _rw_idempotency WHERE scope = $1 AND key = $2', [scope, key]);
  }
  // Swept as a side effect of completions, so the table stays bounded without a timer (as on SQLite).
  await pool.query('DELETE FROM _rw_idempotency WHERE expires_at < $1', [new Date().toISOString()]);
}
