// The load generator: wrk (https://github.com/wg/wrk, Debian package `wrk`) as a child process, one run
// per warm-up or measured window, driven by the Lua scripts in bench/wrk/. wrk is C with an event
// loop: on 2 cores one wrk thread (about one core) drives raw node:http several times faster than
// autocannon inside the bench process could, so the server, not the load generator, is what saturates.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/wrk/: the Lua scripts; wrk runs with it as its working directory (they `dofile("common.lua")`). */
export const WRK_DIR = join(dirname(fileURLToPath(import.meta.url)), 'wrk');

/** A Lua script of bench/wrk/ and its arguments (what follows `--` on wrk's command line). */
export interface WrkScript {
  script: 'get.lua' | 'post.lua' | 'signed.lua' | 'mutate.lua' | 'batch.lua' | 'search.lua';
  args: string[];
  /** Files prepared for this run only (signed requests): deleted once wrk has ended. */
  files?: string[];
}

/**
 * The raw node:http req/s wrk reached in this run (set by the ceiling section): an upper bound on
 * what any server answers under the same load, used to size prepared request files.
 */
export const ceilings: { get?: number; post?: number } = {};

/** One wrk invocation. */
export interface WrkOptions extends WrkScript {
  url: string;
  connections: number;
  seconds: number;
  threads: number;
  /** A request not answered within this is a timeout error (json-server at 100k rows takes seconds per write). */
  timeoutSeconds?: number;
  /** The server's process id: its CPU time over the run is reported next to wrk's. */
  serverPid?: number;
}

/** What one wrk run measured (latencies in ms, from wrk's own histogram, `--latency`). */
export interface WrkResult {
  requests: number;
  /** wrk's wall time for the run (always the full `-d`, even when a script stops early). */
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  statusCodes: Record<string, number>;
  non2xx: number;
  /** Socket errors: connect + read + write + timeout. */
  errors: number;
  /** A script ran out of prepared requests (signed webhooks) before the window ended. */
  exhausted: boolean;
  /** Cores used over the run (1 = one core busy the whole time): wrk's, and the server's when its pid was given. */
  cpu: { generator: number; server?: number };
}

let available: { version: string } | { error: string } | undefined;

function wrkVersion(): string | undefined {
  // `wrk --version` prints "wrk debian/4.1.0-3+b2 [epoll] …" and exits 1.
  const r = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (r.error) return undefined;
  return /wrk\s+(\S+)/.exec(`${r.stdout}${r.stderr}`)?.[1] ?? 'unknown version';
}

function aptGet(args: string[]): { ok: boolean; output: string } {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['apt-get', args] : ['sudo', ['-n', 'apt-get', ...args]];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 300_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim() };
}

/**
 * Makes sure wrk is installed: when it is missing, `apt-get install -y wrk`, and if that fails,
 * `apt-get update` and the install again. Says what it does on `progress`; returns wrk's version, or
 * throws with a clear message when it cannot be installed (every wrk row then fails with that message).
 */
export function ensureWrk(progress: (line: string) => void): string {
  if (!available) {
    let version = wrkVersion();
    if (!version) {
      progress('wrk is not installed: apt-get install -y wrk');
      let install = aptGet(['install', '-y', 'wrk']);
      if (!install.ok) {
        progress('apt-get install -y wrk failed: apt-get update, then install again');
        aptGet(['update']);
        install = aptGet(['install', '-y', 'wrk']);
      }
      version = wrkVersion();
      if (!version) {
        const last = install.output.split('\n').filter(Boolean).slice(-2).join(' / ');
        available = { error: `wrk is not installed and could not be installed (apt-get install -y wrk: ${last || 'failed'}); install the Debian package wrk and rerun` };
      }
    }
    if (version) available = { version };
  }
  if ('error' in available!) {
    progress(`LOAD GENERATOR MISSING: ${available.error}`);
    throw new Error(available.error);
  }
  return available!.version;
}

/**
 * A process's command name and CPU seconds (user + system) so far, its own and its reaped children's,
 * from /proc/<pid>/stat; undefined when it is gone.
 */
export function processStat(pid: number | 'self'): { name: string; seconds: number; childSeconds: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "pid (comm)": state is field 3; utime 14, stime 15, cutime 16, cstime 17 (1-based).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = (n: number) => Number(fields[n - 3]) / 100; // USER_HZ is 100 on Linux.
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), seconds: at(14) + at(15), childSeconds: at(16) + at(17) };
  } catch {
    return undefined;
  }
}

function cpuSeconds(pid: number | 'self', children = false): number | undefined {
  const stat = processStat(pid);
  return children ? stat?.childSeconds : stat?.seconds;
}

/** The resident set size of a process in MiB (VmRSS of /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return kb / 1024;
}

/** Parses the `@@wrk {…}` line bench/wrk/common.lua prints from wrk's done() hook. */
export function parseWrkOutput(stdout: string): Omit<WrkResult, 'cpu'> {
  const line = stdout.split('\n').find((l) => l.startsWith('@@wrk '));
  if (!line) throw new Error(`wrk printed no summary line:\n${stdout.trim().slice(-600)}`);
  const s = JSON.parse(line.slice(6)) as {
    requests: number;
    duration_us: number;
    p50_us: number;
    p99_us: number;
    connect: number;
    read: number;
    write: number;
    timeout: number;
    exhausted: boolean;
    statuses: Record<string, number>;
  };
  const seconds = s.duration_us / 1e6;
  const non2xx = Object.entries(s.statuses)
    .filter(([code]) => !code.startsWith('2'))
    .reduce((n, [, count]) => n + count, 0);
  return {
    requests: s.requests,
    seconds,
    rps: seconds > 0 ? s.requests / seconds : 0,
    p50: s.p50_us / 1000,
    p99: s.p99_us / 1000,
    statusCodes: s.statuses,
    non2xx,
    errors: s.connect + s.read + s.write + s.timeout,
    exhausted: s.exhausted,
  };
}

/**
 * `wrk -t<threads> -c<connections> -d<seconds>s --latency --timeout <t>s -s <script> <url> -- <args>`,
 * run to completion. wrk's own CPU time is read from this process's reaped-children total (wrk is the
 * only child that ends during a run), the server's from its /proc entry.
 */
export function runWrk(o: WrkOptions): Promise<WrkResult> {
  const args = [
    `-t${o.threads}`,
    `-c${Math.max(o.connections, o.threads)}`,
    `-d${Math.max(1, Math.round(o.seconds))}s`,
    '--latency',
    '--timeout',
    `${o.timeoutSeconds ?? 30}s`,
    '-s',
    join(WRK_DIR, o.script),
    o.url,
    '--',
    ...o.args,
  ];
  const genBefore = cpuSeconds('self', true);
  const serverBefore = o.serverPid ? cpuSeconds(o.serverPid) : undefined;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { cwd: WRK_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      for (const f of o.files ?? []) rmSync(f, { force: true });
      const wall = (performance.now() - started) / 1000;
      const serverAfter = o.serverPid ? cpuSeconds(o.serverPid) : undefined;
      const genAfter = cpuSeconds('self', true);
      try {
        if (code !== 0) throw new Error(`wrk exited with ${code}: ${(stderr || stdout).trim().slice(-600)}`);
        const parsed = parseWrkOutput(stdout);
        const cpu = {
          generator: genBefore !== undefined && genAfter !== undefined ? (genAfter - genBefore) / wall : NaN,
          server: serverBefore !== undefined && serverAfter !== undefined ? (serverAfter - serverBefore) / wall : undefined,
        };
        resolve({ ...parsed, cpu });
      } catch (err) {
        reject(err);
      }
    });
  });
}

let runs = 0;

/** A tag no other wrk run of this bench process uses (POST names and webhook ids are built from it). */
export function runTag(): string {
  runs += 1;
  return `${process.pid}r${runs}`;
}

/** Header lines as the scripts take them ("Name: value"). */
export function headerArgs(headers: Record<string, string> = {}): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}
