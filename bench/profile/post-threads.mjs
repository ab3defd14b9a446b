// Where a durable POST's CPU goes by thread: Restwell serving POST /characters (1k rows, default
// settings, request log to a file) under wrk, its CPU read per thread from /proc/<pid>/task/*/stat
// around each run and grouped by thread name (the event loop, libuv's pool (fsync), V8's helpers,
// worker threads such as the log's writer); µs per POST. Tells how much of a POST the event loop
// itself spends, the share a write thread could take off it, and what the other threads already use;
// and the group commit's mean batch (writes per commit, from /metrics).
//
//   npm run build && node bench/profile/post-threads.mjs [--rounds 3] [--seconds 5] [--ports 18480]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshDir, median, opt, root, seedCharacters, startRestwell, stop, writeCharactersConfig, wrk } from './harness.mjs';

const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 5));
const port = Number(opt('ports', 18480));
const work = freshDir(`/tmp/rw-post-threads-${process.pid}`);

/** CPU ms of each thread of `pid`, summed by thread name (the main thread is "event loop"). */
function threadMs(pid) {
  const out = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const name = tid === String(pid) ? 'event loop' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) * 10;
  }
  return out;
}

/** The group commit's batches so far (restwell_store_commit_batch_size), or undefined when /metrics does not answer. */
async function batches(url) {
  const res = await fetch(`${url}/metrics`).catch(() => undefined);
  if (!res?.ok) return undefined;
  const text = await res.text();
  const value = (name) => Number(new RegExp(`^restwell_store_commit_batch_size_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { sum: value('sum'), count: value('count') };
}

// The bench's config, with /metrics open to read the batch sizes (metrics are kept either way; this only drops the scope check).
const cfg = writeCharactersConfig(join(work, 'public.json'));
writeFileSync(cfg, JSON.stringify({ ...JSON.parse(readFileSync(cfg, 'utf8')), server: { metrics: 'public' } }));
const server = await startRestwell('restwell', { port, config: cfg, db: join(work, 'public.db'), cwd: root, probe: '/characters/1', logFile: join(work, 'restwell.log') });
await seedCharacters(server.url, 1000);
const post = ['-s', join(root, 'bench/profile/post.lua')];
wrk(`${server.url}/characters`, { seconds: 2, args: post });
const perRound = [];
for (let r = 1; r <= rounds; r++) {
  const b0 = await batches(server.url);
  const before = threadMs(server.child.pid);
  const w = wrk(`${server.url}/characters`, { seconds, args: post });
  const after = threadMs(server.child.pid);
  const b1 = await batches(server.url);
  const batch = b0 && b1 ? (b1.sum - b0.sum) / (b1.count - b0.count) : NaN;
  const us = Object.fromEntries(Object.keys(after).map((k) => [k, ((after[k] - (before[k] ?? 0)) * 1000) / w.total]));
  perRound.push({ rps: w.rps, us, batch });
  console.log(`round ${r}: ${w.rps.toFixed(0)} req/s, ${batch.toFixed(1)} writes per commit; µs per POST: ${Object.entries(us).filter(([, v]) => v >= 0.5).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
}
const names = [...new Set(perRound.flatMap((p) => Object.keys(p.us)))];
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c32 -d${seconds}s: ${median(perRound.map((p) => p.rps)).toFixed(0)} req/s, ${median(perRound.map((p) => p.batch)).toFixed(1)} writes per commit`);
for (const n of names) {
  const m = median(perRound.map((p) => p.us[n] ?? 0));
  if (m >= 0.5) console.log(`  ${n.padEnd(16)} ${m.toFixed(1)} µs/POST`);
}
await stop([server]);
