// A real cluster for the cluster tests: `restwell serve` nodes (the built bin/restwell.js, as the
// example runs them) on one fresh PostgreSQL schema, and HAProxy in front with the configuration
// examples/cluster/haproxy-config.mjs renders. Every wait is for an event: a port, a 200 from
// /readyz, a node's state on HAProxy's stats page, a child's exit.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitFor } from '../../src/test-support/wait-for.js';
import { ROOT } from '../support-process.js';

/** What examples/cluster/haproxy-config.mjs exports (a plain ES module, so the example runs without a build). */
export interface HaproxyConfigModule {
  haproxyConfig(o: { port: number; nodes: { name: string; port: number }[]; bind?: string; host?: string; statsPort?: number; checkInterval?: number }): string;
}

/** The example's HAProxy config renderer. */
export async function haproxyConfigModule(): Promise<HaproxyConfigModule> {
  return (await import(pathToFileURL(join(ROOT, 'examples', 'cluster', 'haproxy-config.mjs')).href)) as HaproxyConfigModule;
}

/** The haproxy binary, or undefined when it is not installed. */
export function findHaproxy(): string | undefined {
  return ['haproxy', '/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((bin) => spawnSync(bin, ['-v']).status === 0);
}

/** A port nobody listens on right now (the kernel's pick for port 0, released again). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

// The built CLI when there is one (scripts/test.mjs builds before every run), else the sources.
const CLI = existsSync(join(ROOT, 'dist', 'cli', 'main.js')) ? [join(ROOT, 'bin', 'restwell.js')] : ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts')];

/** One `restwell serve` node, restartable on its port. */
export class ClusterNode {
  child: ChildProcess | undefined;
  /** The output of every run of this node, for failure messages. */
  log = '';
  starts = 0;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly args: string[],
  ) {}

  /** Starts the node and resolves once its /readyz answers 200. */
  async start(): Promise<void> {
    const child = spawn(process.execPath, [...CLI, 'serve', '--port', String(this.port), '--host', '127.0.0.1', ...this.args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.starts++;
    this.log += `--- ${this.name} start ${this.starts} (pid ${child.pid})\n`;
    child.stdout!.on('data', (d) => (this.log += d));
    child.stderr!.on('data', (d) => (this.log += d));
    await waitFor(async () => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${this.name} exited while starting:\n${this.log}`);
      try {
        const res = await fetch(`http://127.0.0.1:${this.port}/readyz`);
        await res.arrayBuffer();
        return res.status === 200;
      } catch {
        return false;
      }
    }, `${this.name} to answer /readyz on port ${this.port}`, 50);
  }

  /** Sends `signal` and resolves once the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
}

/** HAProxy in front of the nodes, with its stats page for the nodes' states. */
export class Balancer {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'restwell-haproxy-'));
  log = '';

  constructor(
    readonly port: number,
    readonly statsPort: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Writes the config and starts haproxy in the foreground; resolves once it lists every node UP. */
  async start(binary: string, config: string, nodes: string[]): Promise<void> {
    const file = join(this.dir, 'haproxy.cfg');
    writeFileSync(file, config);
    const child = spawn(binary, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout!.on('data', (d) => (this.log += d));
    child.stderr!.on('data', (d) => (this.log += d));
    for (const node of nodes) await this.waitState(node, 'UP');
  }

  /** The state HAProxy gives each node of the API backend (UP, DOWN, "UP 1/2"…). */
  async states(): Promise<Map<string, string>> {
    const res = await fetch(`http://127.0.0.1:${this.statsPort}/stats;csv`);
    const text = await res.text();
    const states = new Map<string, string>();
    for (const line of text.split('\n')) {
      const cells = line.split(',');
      if (cells[0] === 'restwell' && cells[1] !== 'BACKEND' && cells[1] !== 'FRONTEND') states.set(cells[1]!, cells[17]!);
    }
    return states;
  }

  /** Resolves once HAProxy's health checks give `node` this state. */
  async waitState(node: string, state: 'UP' | 'DOWN'): Promise<void> {
    await waitFor(async () => {
      if (this.child?.exitCode !== null) throw new Error(`haproxy exited:\n${this.log}`);
      try {
        return (await this.states()).get(node) === state;
      } catch {
        return false;
      }
    }, `haproxy to see ${node} ${state}`, 50);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs `restwell keys create` on the cluster's database; returns the bearer headers. */
export function createKey(args: string[], scopes: string): Record<string, string> {
  const key = execFileSync(process.execPath, [...CLI, 'keys', 'create', ...args, '--name', 'cluster-test', '--scopes', scopes], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  return { authorization: `Bearer ${key}` };
}

/** Drops the test's schema (after every node is stopped). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * An event-stream client that reconnects like EventSource: whenever its connection ends (the node
 * behind the balancer died) or is refused, it connects again through the balancer with
 * `Last-Event-ID` set to the last id it got. It keeps every id in arrival order.
 */
export class ResumingStream {
  readonly ids: string[] = [];
  connects = 0;
  /** Answers other than 200 (a 502 while HAProxy finds the node gone is expected; a 400 is not). */
  readonly refusals: number[] = [];
  private request: ReturnType<typeof import('node:http').request> | undefined;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private lastId: string,
  ) {}

  async open(): Promise<void> {
    const { request } = await import('node:http');
    const connect = () => {
      if (this.stopped) return;
      this.connects++;
      let again = false;
      const retry = () => {
        if (again || this.stopped) return;
        again = true;
        // EventSource's reconnection delay (the server's `retry:` is 2 s; shorter keeps the test short).
        setTimeout(connect, 100);
      };
      const req = request(this.url, { headers: { accept: 'text/event-stream', 'last-event-id': this.lastId, ...this.headers } }, (res) => {
        if (res.statusCode !== 200) {
          this.refusals.push(res.statusCode!);
          res.resume();
          res.on('end', retry);
          res.on('error', retry);
          return;
        }
        let buffer = '';
        let id: string | undefined;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n')) !== -1) {
            const line = buffer.slice(0, end).replace(/\r$/, '');
            buffer = buffer.slice(end + 1);
            if (line.startsWith('id:')) id = line.slice(3).trim();
            else if (line === '' && id !== undefined) {
              this.ids.push(id);
              this.lastId = id;
              id = undefined;
            }
          }
        });
        res.on('close', retry);
        res.on('error', retry);
      });
      req.on('error', retry);
      req.end();
      this.request = req;
    };
    connect();
  }

  close(): void {
    this.stopped = true;
    this.request?.destroy();
  }
}
