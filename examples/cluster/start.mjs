#!/usr/bin/env node
// Starts a Restwell cluster on this machine: N `restwell serve` nodes on one PostgreSQL database and
// HAProxy in front of them. A node that exits is started again (as an orchestrator would do), so
// `kill -9` one and watch HAProxy take it out of the rotation and back in. Ctrl-C stops everything.
//
//   node examples/cluster/start.mjs [--nodes 3] [--port 8080] [--db postgres://…] [--config file]
//
// Run `npm run build` first (the nodes run bin/restwell.js, the published entry point).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { haproxyConfig } from './haproxy-config.mjs';

/** @type {{ name: string, port: number, child?: import('node:child_process').ChildProcess, restarts: number }[]} */
let nodes = [];
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3' },
    port: { type: 'string', default: '8080' },
    db: { type: 'string', default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/restwell' },
    config: { type: 'string', default: join(here, 'restwell.yaml') },
  },
});
const count = Number(values.nodes);
const port = Number(values.port);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(port) || port < 1 || port + count > 65535) fail('--nodes and --port take positive integers (the nodes listen on the ports after --port)');
if (!values.db.startsWith('postgres')) fail('several nodes share one PostgreSQL database: pass --db postgres://… (or set DATABASE_URL)');
if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) fail('dist/ is missing: run `npm run build` first');
const haproxy = ['haproxy', '/usr/sbin/haproxy'].find((bin) => spawnSync(bin, ['-v']).status === 0);
if (!haproxy) fail('haproxy is not installed: sudo apt-get install -y haproxy');

const publicUrl = `http://localhost:${port}`;
nodes = Array.from({ length: count }, (_, i) => ({ name: `node${i + 1}`, port: port + 1 + i, child: undefined, restarts: 0 }));
let stopping = false;

/** Starts (or restarts) one node; its output is printed with its name in front. */
function startNode(node) {
  const child = spawn(process.execPath, [join(root, 'bin', 'restwell.js'), 'serve', '--port', String(node.port), '--host', '127.0.0.1', '--db', values.db, '--config', values.config], {
    cwd: root,
    env: { ...process.env, PUBLIC_URL: publicUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', LOG_FORMAT: process.env.LOG_FORMAT ?? 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  node.child = child;
  for (const stream of [child.stdout, child.stderr]) prefix(stream, node.name);
  say(`${node.name} started on 127.0.0.1:${node.port} (pid ${child.pid})`);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    node.restarts++;
    // Backoff grows with restarts so a node that cannot start does not spin.
    const delay = Math.min(1000 * node.restarts, 10_000);
    say(`${node.name} exited (${signal ?? `code ${code}`}); starting it again in ${delay / 1000} s`);
    setTimeout(() => stopping || startNode(node), delay);
  });
}

/** Resolves once the node answers /readyz with 200 (its database is reachable). */
async function ready(node) {
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${node.port}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (node.child.exitCode !== null) fail(`${node.name} exited before it was ready (see its output above)`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

for (const node of nodes) startNode(node);
await Promise.all(nodes.map(ready));

const dir = mkdtempSync(join(tmpdir(), 'restwell-cluster-'));
const cfg = join(dir, 'haproxy.cfg');
writeFileSync(cfg, haproxyConfig({ port, statsPort: port + count + 1, nodes: nodes.map((n) => ({ name: n.name, port: n.port })) }));
const lb = spawn(haproxy, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
prefix(lb.stdout, 'haproxy');
prefix(lb.stderr, 'haproxy');
lb.on('exit', (code) => {
  if (!stopping) fail(`haproxy exited (code ${code}); its config is ${cfg}`);
});
say(`haproxy (pid ${lb.pid}) balances ${publicUrl} over ${nodes.map((n) => n.port).join(', ')}; config ${cfg}`);
say(`node states: http://localhost:${port + count + 1}/stats   try: curl -s ${publicUrl}/characters`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    say('stopping: haproxy first, then the nodes (each drains its requests)');
    lb.kill('SIGTERM');
    for (const node of nodes) node.child?.kill('SIGTERM');
  });
}

function prefix(stream, name) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) if (line) process.stdout.write(`${name.padEnd(8)}| ${line}\n`);
  });
}

function say(text) {
  process.stdout.write(`cluster | ${text}\n`);
}

function fail(text) {
  process.stderr.write(`cluster: ${text}\n`);
  stopping = true;
  for (const node of nodes) node.child?.kill('SIGTERM');
  process.exit(1);
}
