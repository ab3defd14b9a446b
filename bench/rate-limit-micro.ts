// The cost of one rate-limit count, without HTTP: the in-memory limiter, the PostgreSQL counter and
// the Redis counter, one hit at a time (a lone request: the latency it adds) and 64 at a time (a
// loaded node: what batching per turn makes of it). `node --import tsx bench/rate-limit-micro.ts`
// (BENCH_DATABASE_URL / TEST_DATABASE_URL, BENCH_REDIS_URL as for the bench). Figures are medians of
// 5 rounds of each, alternating, so a busy machine slows all alike.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ClusterRateLimiter } from '../src/auth/cluster-rate-limiter.js';
import { SharedCounts } from '../src/auth/shared-counts.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { RedisHitCounter } from '../src/store/redis/redis-hit-counter.js';
import { BASE_URL, dropSchema } from './scenarios/postgres.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ROUNDS = 5;
const SERIAL = 1000;
const CONCURRENT = 64;
const CONCURRENT_TOTAL = 20_000;
const policy = { name: 'default', limit: 1e9, windowSeconds: 60 };

async function serial(limiter: ClusterRateLimiter): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < SERIAL; i++) await limiter.hit(policy, `key:${i % 50}`);
  return ((performance.now() - start) * 1000) / SERIAL;
}

async function concurrent(limiter: ClusterRateLimiter): Promise<number> {
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, w) => {
      while (next++ < CONCURRENT_TOTAL) await limiter.hit(policy, `key:${w % 50}`);
    }),
  );
  return ((performance.now() - start) * 1000) / CONCURRENT_TOTAL;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const schema = `rw_bench_${randomBytes(5).toString('hex')}`;
const url = new URL(BASE_URL);
url.searchParams.set('schema', schema);
const store = await PostgresStore.connect(url.toString());
const redis = new RedisHitCounter(REDIS_URL, `rw-bench-micro-${process.pid}:`);
await redis.connect();
const limiters = {
  memory: new ClusterRateLimiter(),
  postgres: new ClusterRateLimiter(new SharedCounts(store.hitCounter!, false)),
  redis: new ClusterRateLimiter(new SharedCounts(redis, false)),
};
const results: Record<string, { serial: number[]; concurrent: number[] }> = {};
try {
  for (const l of Object.values(limiters)) await serial(l); // warm-up: connections, prepared plans, JIT
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, l] of Object.entries(limiters)) {
      results[name] ??= { serial: [], concurrent: [] };
      results[name].serial.push(await serial(l));
      results[name].concurrent.push(await concurrent(l));
    }
  }
  console.log(`| counter | one at a time: µs per hit | ${CONCURRENT} at a time: µs per hit |`);
  console.log('|---|---:|---:|');
  for (const [name, r] of Object.entries(results)) console.log(`| ${name} | ${median(r.serial).toFixed(1)} | ${median(r.concurrent).toFixed(1)} |`);
} finally {
  await redis.close();
  await store.close();
  await dropSchema(schema);
}
