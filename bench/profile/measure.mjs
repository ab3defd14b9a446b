// Measures GET /characters/1 and POST /characters with wrk against raw node:http, a bare Fastify
// route and Restwell (anonymous, API key, JWT), in alternating rounds in one session, and reads each
// server's CPU (utime+stime from /proc/<pid>/stat) around every wrk run: CPU ms per 1k requests.
//
//   npm run build && node bench/profile/measure.mjs [--rounds 3] [--seconds 10] [--only raw,fastify,anon,key,jwt,rawpost,post]
//   node bench/profile/measure.mjs --profile DIR --only anon   # Restwell under node --cpu-prof, profiles in DIR
//   node bench/profile/measure.mjs --base /tmp/rw-base          # also a built checkout of another commit, same rounds
//     (make one: git archive <commit> | tar -x -C DIR; ln -s $PWD/node_modules DIR/; (cd DIR && npx tsc -p tsconfig.build.json))
//
// Prints one line per run and then the medians, with the ratio to raw node:http.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cpuMs, freshDir, median, opt, root, seedCharacters, start, startRestwell, stop, writeCharactersConfig, wrk } from './harness.mjs';

const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 10));
const only = opt('only', 'raw,fastify,anon,key,jwt,rawpost,post').split(',');
const profileDir = opt('profile', undefined);
const baseRoot = opt('base', undefined);
const work = freshDir('/tmp/rw-profile');

const config = (name, read) => writeCharactersConfig(join(work, `${name}.json`), read);
const restwell = (name, cfg, db, port, cwd = root) => startRestwell(name, { port, config: cfg, db, cwd, profileDir, probe: '/characters/1' });

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
if (only.includes('raw') || only.includes('rawpost')) servers.raw = await start('raw', ['bench/raw-http-server.mjs', '18081'], { port: 18081, probe: '/characters/1' });
if (only.includes('fastify')) servers.fastify = await start('fastify', ['bench/profile/bare-fastify.mjs', '18082'], { port: 18082, probe: '/characters/1' });
if (only.includes('anon') || only.includes('post')) {
  const db = join(work, 'public.db');
  servers.anon = await restwell('restwell-public', config('public', 'public'), db, 18080);
  await seedCharacters(servers.anon.url, 1000);
}
if (baseRoot && (only.includes('anon') || only.includes('post'))) {
  servers.baseAnon = await restwell('base-public', config('public', 'public'), join(work, 'base-public.db'), 18084, baseRoot);
  await seedCharacters(servers.baseAnon.url, 1000);
}
if (only.includes('key') || only.includes('jwt')) {
  const cfg = config('protected', ['characters:read']);
  const db = join(work, 'protected.db');
  servers.prot = await restwell('restwell-protected', cfg, db, 18083);
  await seedCharacters(servers.prot.url, 1000);
  if (only.includes('key')) servers.key = cli(['keys', 'create', '--name', 'bench', '--scopes', 'characters:read', '--db', db, '--config', cfg]).trim().split(/\s+/).find((w) => w.startsWith('rw_'));
  if (only.includes('jwt')) servers.jwt = await jwtFor(servers.prot.url, cfg, db);
  // The base build serves the same database (same keys and clients) on its own port, never at the same time as load on the other.
  if (baseRoot) servers.baseProt = await restwell('base-protected', cfg, db, 18085, baseRoot);
  // A token names the issuer URL it was minted at (host and port), so the base build gets its own.
  if (baseRoot && only.includes('jwt')) servers.baseJwt = await jwtFor(servers.baseProt.url, cfg, db);
}
const get = (s) => [`${s.url}/characters/1`, []];
if (only.includes('raw')) scenarios.push({ name: 'raw GET', server: servers.raw, req: get(servers.raw) });
if (only.includes('fastify')) scenarios.push({ name: 'fastify GET', server: servers.fastify, req: get(servers.fastify) });
const builds = [['restwell', servers.anon, servers.prot, servers.jwt], ...(baseRoot ? [['base', servers.baseAnon, servers.baseProt, servers.baseJwt]] : [])];
for (const [label, anon, prot, jwt] of builds) {
  if (only.includes('anon')) scenarios.push({ name: `${label} GET`, server: anon, req: get(anon) });
  if (only.includes('key')) scenarios.push({ name: `${label} GET key`, server: prot, req: [`${prot.url}/characters/1`, ['-H', `Authorization: Bearer ${servers.key}`]] });
  if (only.includes('jwt')) scenarios.push({ name: `${label} GET jwt`, server: prot, req: [`${prot.url}/characters/1`, ['-H', `Authorization: Bearer ${jwt}`]] });
}
const post = ['-s', join(root, 'bench/profile/post.lua')];
if (only.includes('rawpost')) scenarios.push({ name: 'raw POST', server: servers.raw, req: [`${servers.raw.url}/characters`, post] });
for (const [label, anon] of builds) if (only.includes('post')) scenarios.push({ name: `${label} POST`, server: anon, req: [`${anon.url}/characters`, post] });

// A short warm-up of each, so the JIT has settled before anything is counted.
for (const s of scenarios) wrk(s.req[0], { seconds: 2, args: s.req[1] });
const results = new Map(scenarios.map((s) => [s.name, []]));
for (let r = 1; r <= rounds; r++) {
  for (const s of scenarios) {
    const before = cpuMs(s.server.child.pid).all;
    const w = wrk(s.req[0], { seconds, args: s.req[1] });
    const cpu = cpuMs(s.server.child.pid).all - before;
    const perK = (cpu / w.total) * 1000;
    results.get(s.name).push({ ...w, perK });
    console.log(`round ${r} ${s.name.padEnd(18)} ${w.rps.toFixed(0).padStart(7)} req/s  p99 ${w.p99}  cpu ${perK.toFixed(1)} ms/1k req${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
  }
}
const rawGet = results.get('raw GET') && median(results.get('raw GET').map((x) => x.rps));
const rawPost = results.get('raw POST') && median(results.get('raw POST').map((x) => x.rps));
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c32 -d${seconds}s, ${new Date().toISOString()}`);
for (const [name, xs] of results) {
  const rps = median(xs.map((x) => x.rps));
  const ref = name.includes('POST') ? rawPost : rawGet;
  console.log(`${name.padEnd(18)} ${rps.toFixed(0).padStart(7)} req/s  ${ref ? `${(rps / ref).toFixed(2)}x raw` : ''}  cpu ${median(xs.map((x) => x.perK)).toFixed(1)} ms/1k req`);
}
await stop(Object.values(servers).filter((s) => s?.child));
