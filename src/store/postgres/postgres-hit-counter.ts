import type pg from 'pg';
import type { HitCount, HitCounter, Hits } from '../hit-counter.js';

/**
 * All keys of a batch in one upsert: a row per (policy, key) holds the count of its current window
 * and when that window ends, on the server's clock. A row whose window ended starts a new one.
 * Rows are locked in (policy, key) order, so two nodes counting the same keys never deadlock.
 * `now()` is the statement's start, the same for every row and both CASEs.
 */
const COUNT_SQL = `
INSERT INTO _rw_rate_counters AS c (policy, key, count, window_end)
SELECT t.policy, t.key, t.n, now() + t.ms * interval '1 millisecond'
  FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[]) WITH ORDINALITY AS t(policy, key, n, ms, i)
 ORDER BY t.i
ON CONFLICT (policy, key) DO UPDATE SET
  count = CASE WHEN c.window_end > now() THEN c.count + excluded.count ELSE excluded.count END,
  window_end = CASE WHEN c.window_end > now() THEN c.window_end ELSE excluded.window_end END
RETURNING c.policy, c.key, c.count, ceil(extract(epoch FROM c.window_end - now()) * 1000)::int8 AS reset_ms`;

/** Rows of keys idle for a while go; a returning key just starts a new window. */
const SWEEP_SQL = `DELETE FROM _rw_rate_counters WHERE window_end < now() - interval '1 minute'`;
const SWEEP_EVERY_MS = 60_000;

/**
 * Rate-limit counters in an UNLOGGED table of the shared database (`_rw_rate_counters`): no WAL,
 * so a count costs one round trip and no fsync; a crash of the database server empties the table,
 * which only restarts the windows. Errors are the pool's own (the engine maps them).
 */
export class PostgresHitCounter implements HitCounter {
  readonly where = 'the PostgreSQL database';
  private lastSweep = Date.now();

  constructor(private readonly pool: pg.Pool) {}

  async count(hits: readonly Hits[]): Promise<HitCount[]> {
    this.sweepNowAndThen();
    const stored = hits.map((h) => ({ ...h, policy: asText(h.policy), key: asText(h.key) }));
    const order = stored.map((_, i) => i).sort((a, b) => compare(stored[a], stored[b]));
    // Named, so each connection parses and plans it once.
    const { rows } = await this.pool.query<{ policy: string; key: string; count: number; reset_ms: number }>({
      name: 'rw_count_hits',
      text: COUNT_SQL,
      values: [order.map((i) => stored[i].policy), order.map((i) => stored[i].key), order.map((i) => stored[i].n), order.map((i) => stored[i].windowMs)],
    });
    const byKey = new Map(rows.map((r) => [`${r.policy}\u0000${r.key}`, r]));
    return stored.map((h) => {
      const row = byKey.get(`${h.policy}\u0000${h.key}`)!;
      return { count: Number(row.count), resetMs: Math.max(0, Number(row.reset_ms)) };
    });
  }

  /** At most once a minute per node, off the request's path: its failure is of no consequence. */
  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.pool.query(SWEEP_SQL).catch(() => undefined);
  }
}

/** PostgreSQL text holds no NUL: it is written as backslash-0 (and a backslash doubled), so distinct keys stay distinct. */
function asText(s: string): string {
  return /[\\\u0000]/.test(s) ? s.replace(/[\\\u0000]/g, (c) => (c === '\\' ? '\\\\' : '\\0')) : s;
}

function compare(a: Hits, b: Hits): number {
  return a.policy < b.policy ? -1 : a.policy > b.policy ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
