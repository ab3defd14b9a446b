/**
 * The long fuzz run (`npm run fuzz`): every engine (SQLite; PostgreSQL when TEST_DATABASE_URL is
 * set), FUZZ_REQUESTS requests each (default 100000) from FUZZ_SEED (default: random, printed),
 * FUZZ_CONCURRENCY in flight (default 8). FUZZ_ONLY=<index> replays one request of the seed.
 * FUZZ_ENGINES=sqlite,postgres picks engines. Exits 1 when anything was found.
 */
import { engines } from '../../src/test-support/engines.js';
import { runCampaign } from './campaign.js';
import { buildContext } from './fuzz-context.js';
import { startTarget } from './fuzz-target.js';
import { formatReport } from './report.js';

const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 32));
const requests = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const only = process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY);
const wanted = process.env.FUZZ_ENGINES?.split(',');

let failed = false;
for (const engine of engines.filter((e) => !wanted || wanted.includes(e.name))) {
  const target = await startTarget(engine);
  try {
    const ctx = await buildContext(target, seed);
    process.stdout.write(`fuzzing ${engine.name} at ${target.base}: seed ${seed}, ${only === undefined ? `${requests} requests` : `request ${only} only`}, ${concurrency} in flight\n`);
    const started = Date.now();
    const report = await runCampaign(target, ctx, {
      seed,
      requests: only === undefined ? requests : 1,
      first: only,
      concurrency,
      progress: (r) => process.stdout.write(`  ${engine.name}: ${r.sent} sent, ${r.findings.length} findings, ${Math.round((Date.now() - started) / 1000)}s\n`),
    });
    process.stdout.write(`${formatReport(report)}\n\n`);
    failed ||= report.findings.length > 0;
  } finally {
    await target.stop();
  }
}
process.exit(failed ? 1 : 0);
