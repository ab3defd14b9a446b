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
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const rounds = Number(opt('rounds', 3));
const seconds = Number(opt('seconds', 10));
const only = opt('only', 'raw,fastify,anon,key,jwt,rawpost,post').split(',');
const profileDir = opt('profile', undefined);
const baseRoot = opt('base', undefined);
const work = '/tmp/rw-profile';
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const CHARACTERS = { fields: { name: { type: 'string', required: true, unique: true, maxLength: 200 }, number: { type: 'string', maxLength: 40 } } };
function config(name, read) {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify({ resources: { characters: { ...CHARACTERS, access: { read, write: 'public' } } }, auth: { rateLimit: false } }));
  return file;
}

const children = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

async function start(name, argv, port, cwd = root) {
  const child = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, LOG_LEVEL: 'warn' } });
  children.push(child);
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/characters/1`).then((r) => r.arrayBuffer());
      return { name, child, url: `http://127.0.0.1:${port}` };
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${name} did not start`);
}

function restwell(name, cfg, db, port, cwd = root) {
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  return start(name, [...prof, 'bin/restwell.js', 'serve', '--config', cfg, '--port', String(port), '--host', '127.0.0.1', '--db', db], port, cwd);
}

async function seed(url, count) {
  let next = 1;
  const worker = async () => {
    while (next <= count) {
      const i = next++;
      const res = await fetch(`${url}/characters`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `Character ${i}`, number: '+1-555-0100' }) });
      if (res.status !== 201) throw new Error(`seed: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

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

/** utime + stime of a process, in ms (clock ticks are 10 ms on Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function wrk(url, extra) {
  const out = execFileSync('wrk', ['-t1', '-c32', `-d${seconds}s`, '--latency', ...extra, url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
  const total = Number(/(\d+) requests in/.exec(out)[1]);
  const p99 = /99%\s+(\S+)/.exec(out)?.[1];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return { rps, total, p99, non2xx };
}

const servers = {};
const scenarios = [];
if (only.includes('raw') || only.includes('rawpost')) servers.raw = await start('raw', ['bench/raw-http-server.mjs', '18081'], 18081);
if (only.includes('fastify')) servers.fastify = await start('fastify', ['bench/profile/bare-fastify.mjs', '18082'], 18082);
if (only.includes('anon') || only.includes('post')) {
  const db = join(work, 'public.db');
  servers.anon = await restwell('restwell-public', config('public', 'public'), db, 18080);
  await seed(servers.anon.url, 1000);
}
if (baseRoot && (only.includes('anon') || only.includes('post'))) {
  servers.baseAnon = await restwell('base-public', config('public', 'public'), join(work, 'base-public.db'), 18084, baseRoot);
  await seed(servers.baseAnon.url, 1000);
}
if (only.includes('key') || only.includes('jwt')) {
  const cfg = config('protected', ['characters:read']);
  const db = join(work, 'protected.db');
  servers.prot = await restwell('restwell-protected', cfg, db, 18083);
  await seed(servers.prot.url, 1000);
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
for (const s of scenarios) execFileSync('wrk', ['-t1', '-c32', '-d2s', ...s.req[1], s.req[0]]);
const results = new Map(scenarios.map((s) => [s.name, []]));
for (let r = 1; r <= rounds; r++) {
  for (const s of scenarios) {
    const before = cpuMs(s.server.child.pid);
    const w = wrk(...s.req);
    const cpu = cpuMs(s.server.child.pid) - before;
    const perK = (cpu / w.total) * 1000;
    results.get(s.name).push({ ...w, perK });
    console.log(`round ${r} ${s.name.padEnd(18)} ${w.rps.toFixed(0).padStart(7)} req/s  p99 ${w.p99}  cpu ${perK.toFixed(1)} ms/1k req${w.non2xx ? `  NON-2XX ${w.non2xx}` : ''}`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rawGet = results.get('raw GET') && median(results.get('raw GET').map((x) => x.rps));
const rawPost = results.get('raw POST') && median(results.get('raw POST').map((x) => x.rps));
console.log(`\nmedians of ${rounds} rounds, wrk -t1 -c32 -d${seconds}s, ${new Date().toISOString()}`);
for (const [name, xs] of results) {
  const rps = median(xs.map((x) => x.rps));
  const ref = name.includes('POST') ? rawPost : rawGet;
  console.log(`${name.padEnd(18)} ${rps.toFixed(0).padStart(7)} req/s  ${ref ? `${(rps / ref).toFixed(2)}x raw` : ''}  cpu ${median(xs.map((x) => x.perK)).toFixed(1)} ms/1k req`);
}
for (const s of Object.values(servers)) if (s?.child) s.child.kill('SIGTERM');
await sleep(1500);
