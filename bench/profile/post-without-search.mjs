// What µs taken off the event loop buy a durable POST in req/s on this machine: two identical Restwell
// servers (1k rows, default settings, request log to a file), and on one of them the search index's
// triggers on characters dropped once it has started (~15 µs of SQLite work per write gone; its
// searches would then miss new records, so this is a measurement, not a setting). Alternating wrk
// rounds of 4 s with raw node:http; req/s, server CPU per request and the per-round ratio.
//
//   npm run build && node bench/profile/post-without-search.mjs [rounds, default 5]
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cpuMs, freshDir, median, root, seedCharacters, start, startRestwell, stop, writeCharactersConfig, wrk } from './harness.mjs';

const rounds = Number(process.argv[2] ?? 5);
const Database = createRequire(`${root}/package.json`)('better-sqlite3');
const work = freshDir(`/tmp/rw-post-without-search-${process.pid}`);
const cfg = writeCharactersConfig(join(work, 'public.json'));
const served = (name, port) => startRestwell(name, { port, config: cfg, db: join(work, `${name}.db`), cwd: root, probe: '/characters/1', logFile: join(work, `${name}.log`) });

const raw = await start('raw', ['bench/raw-http-server.mjs', '18581'], { port: 18581, probe: '/characters/1' });
const full = await served('full', 18582);
const bare = await served('without-search', 18583);
await seedCharacters(full.url, 1000);
await seedCharacters(bare.url, 1000);
// After start: the server's schema sync would put the triggers back. Its statements are prepared again on their own.
const db = new Database(join(work, 'without-search.db'));
db.pragma('busy_timeout = 5000');
for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'characters'").all()) db.exec(`DROP TRIGGER "${name}"`);
db.close();

const post = ['-s', join(root, 'bench/profile/post.lua')];
const servers = [['raw', raw], ['full', full], ['without search', bare]];
for (const [, s] of servers) wrk(`${s.url}/characters`, { seconds: 2, args: post });
const results = new Map(servers.map(([name]) => [name, []]));
for (let r = 1; r <= rounds; r++) {
  for (const [name, s] of servers) {
    const before = cpuMs(s.child.pid).all;
    const w = wrk(`${s.url}/characters`, { seconds: 4, args: post });
    const cpu = ((cpuMs(s.child.pid).all - before) / w.total) * 1000;
    results.get(name).push({ rps: w.rps, cpu });
    console.log(`round ${r} ${name.padEnd(15)} ${w.rps.toFixed(0).padStart(6)} req/s  cpu ${cpu.toFixed(1)} µs/req${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
  }
}
const rawRps = median(results.get('raw').map((x) => x.rps));
for (const [name, xs] of results) {
  const rps = median(xs.map((x) => x.rps));
  console.log(`${name.padEnd(15)} ${rps.toFixed(0).padStart(6)} req/s  ${(rps / rawRps).toFixed(3)}x raw  cpu ${median(xs.map((x) => x.cpu)).toFixed(1)} µs/req`);
}
const ratios = results.get('full').map((x, i) => results.get('without search')[i].rps / x.rps);
console.log(`without search / full, per round: ${ratios.map((x) => x.toFixed(2)).join(' ')}; median ${median(ratios).toFixed(2)}`);
await stop([raw, full, bare]);
