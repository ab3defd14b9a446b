import { join } from 'node:path';
import { notRun, reason, runRow, seedOverHttp } from '../context.js';
import type { BenchContext } from '../settings.js';
import { writeRestwellConfig } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { getById } from '../requests.js';
import { restwellCli, startRestwell, withServer } from '../servers.js';
import { PROTECTED_CHARACTERS } from './auth-common.js';
import { BASE_URL, benchSchema, dropSchema, reachable } from './postgres.js';

/** The Redis the Redis row counts on (BENCH_REDIS_URL, else the local one). */
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A limit no load here reaches: every request is counted, none is refused, so the row measures the count alone. */
const LIMIT = { limit: 1_000_000_000, window: '1m' };

/**
 * The cost of a rate limit that holds for the cluster: GET by id with an API key on PostgreSQL, with
 * no rate limit, then the limit counted in memory (each node alone), in the PostgreSQL database and
 * in Redis (shared by every node). One schema and one key for the four rows; each row measured in
 * rounds alternating with raw node:http, so their ratios compare despite a busy machine.
 */
export async function rateLimitRows(ctx: BenchContext): Promise<Row[]> {
  const variants = [
    { server: SERVERS.pgKey, auth: { rateLimit: false } },
    { server: SERVERS.pgKeyMemoryLimit, auth: { rateLimit: LIMIT, rateLimitStore: 'memory' } },
    { server: SERVERS.pgKeyDatabaseLimit, auth: { rateLimit: LIMIT, rateLimitStore: 'database' } },
    { server: SERVERS.pgKeyRedisLimit, auth: { rateLimit: LIMIT, rateLimitStore: 'redis' }, redis: { url: REDIS_URL, keyPrefix: `rw-bench-${process.pid}:` } },
  ];
  const na = (why: string) => variants.map((v) => notRun(GROUPS.getById.id, GROUPS.getById.label, v.server, why, 'get'));
  const target = benchSchema();
  if ('notRun' in target) return na(target.notRun);
  const unreachable = await reachable();
  if (unreachable) return na(`n/a (PostgreSQL not reachable at ${BASE_URL}: ${unreachable})`);
  const { schema, db } = target;
  const rows: Row[] = [];
  try {
    const seedConfig = writeRestwellConfig(join(ctx.work, 'rate-limit-seed.config.json'), {}, { ...PROTECTED_CHARACTERS, access: { read: 'public', write: 'public' } });
    const { small } = ctx.settings.sizes;
    await withServer(startRestwell({ db, config: seedConfig, name: 'seed', quietLogs: true }), (rw) => seedOverHttp(rw.url, small));
    ctx.progress(`seeded ${small} characters into PostgreSQL schema ${schema} for the rate-limit rows`);
    const created = await restwellCli(['keys', 'create', '--name', 'bench', '--scopes', '*', '--db', db]);
    const key = (created.stdout.match(/\brw_[A-Za-z0-9_-]+/g) ?? []).sort((a, b) => b.length - a.length)[0];
    if (created.code !== 0 || !key) return na(`n/a (keys create printed no rw_ key: ${(created.stderr || created.stdout).trim().slice(0, 160)})`);
    const plan = getById(small, { authorization: `Bearer ${key}` });
    for (const v of variants) {
      const config = writeRestwellConfig(join(ctx.work, `rate-limit-${rows.length}.config.json`), { auth: v.auth, ...(v.redis ? { redis: v.redis } : {}) }, PROTECTED_CHARACTERS);
      try {
        rows.push(
          await withServer(startRestwell({ db, config, name: v.server }), (rw) =>
            runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server: v.server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan, skipIfPreflightFails: true, pair: true }),
          ),
        );
      } catch (err) {
        rows.push(notRun(GROUPS.getById.id, GROUPS.getById.label, v.server, `n/a (${reason(err)})`, 'get'));
      }
    }
    return rows;
  } finally {
    await dropSchema(schema);
  }
}
