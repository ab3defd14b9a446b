// Measures GET /characters/1 and POST /characters with wrk against raw node:http, a bare Fastify
// route and Restwell (anonymous, API key, JWT), in alternating rounds in one session, and reads each
// server's CPU (utime+stime from /proc/<pid>/stat) around every wrk run: CPU ms per 1k requests.
//
//   npm run build && node bench/profile/measure.mjs [--rounds 3] [--seconds 10] [--only raw,fastify,anon,key,jwt,rawpost,post]
//   node bench/profile/measure.mjs --profile DIR --only anon   # Restwell under node --cpu-prof, profiles in DIR
//   node bench/profile/measure.mjs --base /tmp/rw-base          # also a built checkout of another commit, same rounds
//   node bench/profile/measure.mjs --base /tmp/a,/tmp/b          # several: each its own server, labelled base1, base2, …
//   node bench/profile/measure.mjs --logs both --only raw,anon   # the request log's cost: default settings vs LOG_LEVEL=warn
//     (--logs on, the default: Restwell at its default settings, a JSON line per request to a file in
//      /tmp/rw-profile-<pid>, as a process manager collects stdout; off: LOG_LEVEL=warn; both: each, as its own server)
//     (make one: git archive <commit> | tar -x -C DIR; ln -s $PWD/node_modules DIR/; (cd DIR && npx tsc -p tsconfig.build.json))
//   node bench/profile/measure.mjs --pin 0:1 …                 # servers on CPU 0, wrk on CPU 1 (harness.mjs: fairer pairs on a shared machine)
//
// Prints one line per run, then the medians, with the ratio to raw node:http, then the paired figures:
// the median over rounds of each round's ratio to raw (and, with --logs both, to its "nolog" twin, with
// the CPU µs per request between them; with --base, to the base build's server at the same log setting).
// Rounds alternate their order (forward, then reversed). Judge a few-percent difference by the paired
// CPU µs and ratios of many short rounds (e.g. --rounds 9 --seconds 3), not by one round's req/s.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cpuMs, freshDir, loadAverage, median, opt, root, seedCharacters, start, startRestwell, stop, writeCharactersConfig, wrk } from './harness.mjs';

const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 10));
const only = opt('only', 'raw,fastify,anon,key,jwt,rawpost,post').split(',');
const profileDir = opt('profile', undefined);
const baseRoots = opt('base', undefined)?.split(',') ?? [];
const baseLabels = baseRoots.map((_, i) => (baseRoots.length > 1 ? `base${i + 1}` : 'base'));
const logs = opt('logs', 'on');
// Its own folder and ports (--ports BASE, default 18080): others may be measuring on the same machine.
const work = freshDir(`/tmp/rw-profile-${process.pid}`);
const ports = Number(opt('ports', 18080));

const config = (name, read) => writeCharactersConfig(join(work, `${name}.json`), read);
const restwell = (name, cfg, db, port, cwd = root, logged = true) =>
  startRestwell(name, { port, config: cfg, db, cwd, profileDir, probe: '/characters/1', logFile: logged ? join(work, `${name}.log`) : undefined });

function cli(argv) {
  return execFileSync(process.execPath, ['bin/restwell.js', ...argv], { cwd: root, encoding: 'utf8' });
}

async function jwtFor(url, cfg, db) {
  const out = cli(['clients', 'create', '--name', 'bench', '--scopes', 'characters:read', '--db', db, '--config', cfg]);
  const id = /\brwc_[A-Za-z0-9_-]+/.exec(out)[0];
  const secret = /\brws_[A-Za-z0-9_-]+/.exec(out)[0];
  const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');
  const res = await fetch(`${url}/oauth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
  return (await res.json()).access_token;
}

const servers = {};
const scenarios = [];
if (only.includes('raw') || only.includes('rawpost')) servers.raw = await start('raw', ['bench/raw-http-server.mjs', String(ports + 1)], { port: ports + 1, probe: '/characters/1' });
if (only.includes('fastify')) servers.fastify = await start('fastify', ['bench/profile/bare-fastify.mjs', String(ports + 2)], { port: ports + 2, probe: '/characters/1' });
// Each build (this checkout, --base) at each log setting asked for is its own pair of servers.
const variants = [
  ...(logs === 'off' ? [] : [{ label: 'restwell', cwd: root, logged: true }]),
  ...(logs === 'on' ? [] : [{ label: logs === 'both' ? 'restwell nolog' : 'restwell', cwd: root, logged: false }]),
  ...baseRoots.map((cwd, i) => ({ label: baseLabels[i], cwd, logged: logs !== 'off' })),
];
let port = ports + 4;
const builds = [];
for (const v of variants) {
  const tag = v.label.replace(/ /g, '-');
  const build = { label: v.label };
  if (only.includes('anon') || only.includes('post')) {
    build.anon = await restwell(`${tag}-public`, config('public', 'public'), join(work, `${tag}-public.db`), v.label === 'restwell' ? ports : port++, v.cwd, v.logged);
    await seedCharacters(build.anon.url, 1000);
  }
  if (only.includes('key') || only.includes('jwt')) {
    const cfg = config('protected', ['characters:read']);
    const db = join(work, 'protected.db');
    // Every build serves the same database (same keys and clients) on its own port, never under load at the same time.
    build.prot = await restwell(`${tag}-protected`, cfg, db, v.label === 'restwell' ? ports + 3 : port++, v.cwd, v.logged);
    if (!builds.length) await seedCharacters(build.prot.url, 1000);
    if (only.includes('key')) servers.key ??= cli(['keys', 'create', '--name', 'bench', '--scopes', 'characters:read', '--db', db, '--config', cfg]).trim().split(/\s+/).find((w) => w.startsWith('rw_'));
    // A token names the issuer URL it was minted at (host and port), so each server gets its own.
    if (only.includes('jwt')) build.jwt = await jwtFor(build.prot.url, cfg, db);
  }
  builds.push(build);
  servers[`${tag}-anon`] = build.anon;
  servers[`${tag}-prot`] = build.prot;
}
const get = (s) => [`${s.url}/characters/1`, []];
if (only.includes('raw')) scenarios.push({ name: 'raw GET', server: servers.raw, req: get(servers.raw) });
if (only.includes('fastify')) scenarios.push({ name: 'fastify GET', server: servers.fastify, req: get(servers.fastify) });
for (const { label, anon, prot, jwt } of builds) {
  if (only.includes('anon')) scenarios.push({ name: `${label} GET`, server: anon, req: get(anon) });
  if (only.includes('key')) scenarios.push({ name: `${label} GET key`, server: prot, req: [`${prot.url}/characters/1`, ['-H', `Authorization: Bearer ${servers.key}`]] });
  if (only.includes('jwt')) scenarios.push({ name: `${label} GET jwt`, server: prot, req: [`${prot.url}/characters/1`, ['-H', `Authorization: Bearer ${jwt}`]] });
}
const post = ['-s', join(root, 'bench/profile/post.lua')];
if (only.includes('rawpost')) scenarios.push({ name: 'raw POST', server: servers.raw, req: [`${servers.raw.url}/characters`, post] });
for (const { label, anon } of builds) if (only.includes('post')) scenarios.push({ name: `${label} POST`, server: anon, req: [`${anon.url}/characters`, post] });

console.log(`load average ${loadAverage()}${baseRoots.map((d, i) => `; ${baseLabels[i]}: ${d}`).join('')}`);
// A short warm-up of each, so the JIT has settled before anything is counted.
for (const s of scenarios) wrk(s.req[0], { seconds: 2, args: s.req[1] });
const results = new Map(scenarios.map((s) => [s.name, []]));
for (let r = 1; r <= rounds; r++) {
  // Every other round runs in reverse order, so a drift of the machine's load during a round favours no one.
  for (const s of r % 2 ? scenarios : [...scenarios].reverse()) {
    const before = cpuMs(s.server.child.pid).all;
    const w = wrk(s.req[0], { seconds, args: s.req[1] });
    const cpu = cpuMs(s.server.child.pid).all - before;
    const perK = (cpu / w.total) * 1000;
    results.get(s.name).push({ ...w, perK });
    console.log(`round ${r} ${s.name.padEnd(24)} ${w.rps.toFixed(0).padStart(7)} req/s  p99 ${w.p99}  cpu ${perK.toFixed(1)} ms/1k req${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
  }
}
const rawGet = results.get('raw GET') && median(results.get('raw GET').map((x) => x.rps));
const rawPost = results.get('raw POST') && median(results.get('raw POST').map((x) => x.rps));
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c32 -d${seconds}s, ${new Date().toISOString()}`);
for (const [name, xs] of results) {
  const rps = median(xs.map((x) => x.rps));
  const ref = name.includes('POST') ? rawPost : rawGet;
  console.log(`${name.padEnd(24)} ${rps.toFixed(0).padStart(7)} req/s  ${ref ? `${(rps / ref).toFixed(2)}x raw` : ''}  cpu ${median(xs.map((x) => x.perK)).toFixed(1)} ms/1k req`);
}
// Paired: each round's figures against the same round's raw node:http and "nolog" twin, then the median
// of those per-round figures (the load moves between rounds far more than within one).
const signed = (x) => `${x < 0 ? '' : '+'}${x.toFixed(1)}`;
const perRound = (name, ref, f) => {
  const xs = results.get(name);
  const ys = results.get(ref);
  return xs && ys ? median(xs.map((x, i) => f(x, ys[i]))) : undefined;
};
console.log(`\npaired: medians of the per-round ratio to raw node:http${logs === 'both' ? ', and of the log\'s cost per round (with the log against LOG_LEVEL=warn: req/s ratio, CPU µs per request more)' : ''}`);
for (const name of results.keys()) {
  if (name.startsWith('raw')) continue;
  const toRaw = perRound(name, name.includes('POST') ? 'raw POST' : 'raw GET', (x, raw) => x.rps / raw.rps);
  const twin = name.replace(/^restwell /, 'restwell nolog ');
  const cost = logs === 'both' && twin !== name && results.has(twin);
  const ratio = cost ? perRound(name, twin, (x, off) => x.rps / off.rps) : undefined;
  const extra = cost ? perRound(name, twin, (x, off) => x.perK - off.perK) : undefined;
  const vsBase = name.startsWith('restwell') && (name.startsWith('restwell nolog') ? logs === 'off' : true);
  const against = baseLabels
    .map((label) => [label, name.replace(/^restwell (nolog )?/, `${label} `)])
    .filter(([, base]) => vsBase && results.has(base))
    .map(([label, base]) => {
      const baseRatio = perRound(name, base, (x, b) => x.rps / b.rps);
      const baseExtra = perRound(name, base, (x, b) => x.perK - b.perK);
      return `   against ${label === 'base' ? '--base' : label}: ${baseRatio.toFixed(2)}x the req/s, ${signed(baseExtra)} µs CPU/request`;
    });
  console.log(
    `${name.padEnd(24)} ${toRaw === undefined ? '' : `${toRaw.toFixed(2)}x raw`}` +
      (cost ? `   log cost: ${ratio.toFixed(2)}x the req/s, ${signed(extra)} µs CPU/request` : '') +
      against.join(''),
  );
}
console.log(`load average ${loadAverage()}`);
await stop(Object.values(servers).filter((s) => s?.child));
