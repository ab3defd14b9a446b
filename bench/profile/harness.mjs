// The plumbing the measuring scripts in this folder share (measure.mjs, measure-pg.mjs,
// list-measure.mjs): their options, starting the servers they measure, reading a process's CPU and
// running wrk. Each script keeps what it measures and how it prints it.
import { spawn, execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The checkout these scripts belong to: servers run from here unless given another build's folder. */
export const root = resolve(import.meta.dirname, '../..');

/**
 * The value after `--name` on the command line, or `dflt` when the option is not given.
 * @param {string} name
 * @param {string} [dflt]
 */
export function opt(name, dflt) {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
}

/** Empties (or creates) `dir`: each run starts from fresh databases and configs. */
export function freshDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Writes a Restwell config with the bench's `characters` resource, read by `read` ('public' or a list
 * of scopes) and written by anyone, and returns `file`.
 * @param {string} file
 * @param {string | string[]} [read]
 */
export function writeCharactersConfig(file, read = 'public') {
  const fields = { name: { type: 'string', required: true, unique: true, maxLength: 200 }, number: { type: 'string', maxLength: 40 } };
  // The per-client rate limit would turn a load test into a stream of 429s.
  writeFileSync(file, JSON.stringify({ resources: { characters: { fields, access: { read, write: 'public' } } }, auth: { rateLimit: false } }));
  return file;
}

/** Creates characters 1..`count` through the server at `url`, 16 requests at a time. */
export async function seedCharacters(url, count) {
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

/**
 * `--pin SERVER:WRK` (CPU lists as taskset takes them, e.g. `--pin 0:1`): every server runs on the first
 * CPUs, wrk on the second. Unpinned, the scheduler keeps each process where it first ran, and on a shared
 * machine one server can sit beside another's busy process for a whole run: two servers of the same build
 * then differ by 10% (an A/A run), in whichever direction their placement happened to fall.
 */
const pin = opt('pin', undefined)?.split(':');
/** `command args…`, run on `cpus` when pinning was asked for. */
const pinned = (cpus, command, args) => (pin ? ['taskset', ['-c', cpus, command, ...args]] : [command, args]);

// Every server started, so none outlives the script, even when it throws half-way.
const children = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

/**
 * Starts `node argv…` in `cwd` and resolves once `http://127.0.0.1:<port><probe>` answers (any
 * status): `{ name, child, url }`. Throws if the process exits first or nothing answers in 20 s.
 * With `logFile`, the server runs at its default log settings (LOG_LEVEL unset: a line per request)
 * and its stdout and stderr go to that file, as a process manager collects them; without, at
 * LOG_LEVEL=warn with stdout discarded.
 * @param {string} name
 * @param {string[]} argv
 * @param {{ port: number, cwd?: string, probe?: string, logFile?: string }} where
 */
export async function start(name, argv, { port, cwd = root, probe = '/', logFile }) {
  const { LOG_LEVEL, LOG_FORMAT, ...env } = process.env;
  const out = logFile ? openSync(logFile, 'a') : 'ignore';
  const stdio = logFile ? ['ignore', out, out] : ['ignore', 'ignore', 'inherit'];
  // taskset execs the command: the child's pid is the server's.
  const child = spawn(...pinned(pin?.[0], process.execPath, argv), { cwd, stdio, env: logFile ? env : { ...env, LOG_LEVEL: 'warn' } });
  // The child has its own copy of the descriptor.
  if (typeof out === 'number') closeSync(out);
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 400; i++) {
    // Another process on the port would answer for a server that could not listen.
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}); is port ${port} taken?`);
    try {
      await fetch(url + probe).then((r) => r.arrayBuffer());
      return { name, child, url };
    } catch {
      await sleep(50);
    }
  }
  throw new Error(`${name} did not start`);
}

/**
 * Starts `bin/restwell.js serve` of the build in `cwd` (see `start`); with `profileDir`, under
 * node --cpu-prof, the profile written to `<profileDir>/<name>.cpuprofile` when the server exits.
 * @param {string} name
 * @param {{ port: number, config: string, db: string, cwd?: string, probe?: string, profileDir?: string, nodeArgs?: string[], logFile?: string }} options
 */
export function startRestwell(name, { port, config, db, cwd = root, probe, profileDir, nodeArgs = [], logFile }) {
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const argv = [...nodeArgs, ...prof, 'bin/restwell.js', 'serve', '--config', config, '--port', String(port), '--host', '127.0.0.1', '--db', db];
  return start(name, argv, { port, cwd, probe, logFile });
}

/**
 * SIGTERMs the servers and resolves once all have exited: a CPU profile is written only at exit,
 * after the server's graceful close.
 * @param {{ child: import('node:child_process').ChildProcess }[]} servers
 */
export async function stop(servers) {
  for (const s of servers) s.child.kill('SIGTERM');
  await Promise.all(servers.map((s) => (s.child.exitCode !== null ? undefined : new Promise((r) => s.child.once('exit', r)))));
}

/**
 * The CPU a process has used so far, in ms: `all` is utime + stime, `sys` stime alone (the kernel's
 * share: socket writes). Read from /proc/<pid>/stat; clock ticks are 10 ms on Linux. Throws once the
 * process is gone.
 * @param {number} pid
 */
export function cpuMs(pid) {
  // Fields counted after the command name, which may itself hold spaces: utime is the 14th, stime the 15th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { all: (Number(fields[11]) + Number(fields[12])) * 10, sys: Number(fields[12]) * 10 };
}

/** CPU ms of a process; 0 once it is gone, as a PostgreSQL backend may be between two reads. */
export function cpuMsOr0(pid) {
  try {
    return cpuMs(pid).all;
  } catch {
    return 0;
  }
}

/**
 * The pids of the PostgreSQL backends serving connections named `app` (a server's application_name).
 * @param {import('pg').Client} admin
 * @param {string} app
 */
export async function backendPids(admin, app) {
  return (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app])).rows.map((r) => r.pid);
}

/**
 * Runs `wrk -t1 -c<conns> -d<seconds>s --latency <args…> <url>` and returns its requests per second,
 * its total requests, its p50 and p99 as wrk prints them (with a unit: see `ms`), and its count of
 * non-2xx/3xx responses (undefined when there were none).
 * @param {string} url
 * @param {{ seconds: number, conns?: number, args?: string[] }} options
 */
export function wrk(url, { seconds, conns = 32, args = [] }) {
  const out = execFileSync(...pinned(pin?.[1], 'wrk', ['-t1', `-c${conns}`, `-d${seconds}s`, '--latency', ...args, url]), { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
  const total = Number(/(\d+) requests in/.exec(out)[1]);
  // Anchored to the start of a line: the thread stats' "+/- Stdev" column can end in "99%" too.
  const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1];
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1];
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
  return { rps, total, p50, p99, non2xx };
}

/** A latency as wrk prints it ("812.00us", "1.20ms", "2.01s"), in ms; NaN when there is none. */
export function ms(text) {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? '');
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
}

/** The median of `xs` (the upper one of an even count). */
export function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** The 1, 5 and 15 minute load averages, as /proc/loadavg has them: the machine was busy, or not. */
export function loadAverage() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}
