import pg from 'pg';
import { connectFailure } from './postgres-errors.js';

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
  const pool = new UnavailableOnConnectPool({
    connectionString: target.connectionString,
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
    types,
    max: target.poolMax,
    // Fail a request fast (→ 503) rather than queue it for long while the database is away.
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', onIdleError);
  // A connection that dies while checked out but between statements (mid-transaction) emits
  // 'error' on its client, which would crash the process without a listener. The failure still
  // reaches the caller: the client's next statement fails, and it is then released as broken.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/**
 * A pool whose failure to hand out a connection is always StoreUnavailableError: whatever the
 * server said while refusing a new connection (refused socket, timeout, 57P03 starting up, 55000
 * not accepting connections, 53300 too many), no statement ran, so the database is simply not
 * available now. A refusal for good (no such database, wrong password) is its StoreRefusedError
 * subclass, so start-up stops at once instead of retrying. `pool.query` connects through this method too.
 */
class UnavailableOnConnectPool extends pg.Pool {
  override connect(...args: unknown[]): any {
    const cb = args[0] as ((err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) | undefined;
    if (!cb) return new Promise((resolve, reject) => this.connect((err: Error | undefined, client: pg.PoolClient) => (err ? reject(err) : resolve(client))));
    return super.connect((err, client, done) => cb(err ? connectFailure(err, this.options.connectionString ?? '') : undefined, client, done));
  }
}
