import pg from 'pg';

/** Where a PostgreSQL store lives: the connection URL pg gets, and the schema its tables go in. */
export interface PgTarget {
  connectionString: string;
  /** From `?schema=`; undefined means the server's default search_path (normally `public`). */
  schema?: string;
  /** From `?pool_max=`: connections per process (default 10). */
  poolMax: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Splits Restwell's own `schema` and `pool_max` parameters off a `postgres://` URL (pg would pass unknown
 * parameters on to the server). The schema name must be a plain identifier.
 */
export function parseTarget(url: string): PgTarget {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? undefined;
  const poolMax = Number(parsed.searchParams.get('pool_max') ?? 10);
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('pool_max');
  if (!Number.isInteger(poolMax) || poolMax < 1) throw new Error('the pool_max parameter of the database URL must be a positive integer');
  if (schema !== undefined && !IDENTIFIER.test(schema)) {
    throw new Error(`the schema parameter of the database URL must be a plain identifier (letters, digits, _), not ${JSON.stringify(schema)}`);
  }
  return { connectionString: parsed.toString(), schema, poolMax };
}

/**
 * int8 (ids, bigint fields, counts, seq) arrives as a JS number, as better-sqlite3 returns it;
 * set per pool so other pg users in the process keep the driver's defaults.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A pool whose every connection uses the target's schema (set at connection start-up through
 * `options`, so it costs no round trip). An idle connection the server drops is only logged:
 * the pool replaces it on demand, which is how service resumes after an outage.
 */
export function createPool(target: PgTarget, onIdleError: (err: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
    types,
    max: target.poolMax,
    // Fail a request fast (→ 503) rather than queue it for long while the database is away.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', onIdleError);
  return pool;
}
