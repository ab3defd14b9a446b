import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { waitFor } from '../../src/test-support/wait-for.js';
import { ROOT } from '../support-process.js';

/** Every field of a request line, in order. */
const FIELDS = ['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'url', 'status', 'ms', 'msg'];

/** A public `characters` resource in a fresh folder. */
function setUp(): { dir: string; args: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rw-request-log-'));
  const config = join(dir, 'restwell.yaml');
  writeFileSync(config, 'resources:\n  characters:\n    fields:\n      name: { type: string, required: true }\n    access: { read: public, write: public }\n');
  return { dir, args: ['--config', config, '--db', join(dir, 'data.db')] };
}

/** The environment a user's shell gives the server: no LOG_LEVEL, no LOG_FORMAT (stdout is not a terminal, so JSON lines). */
function defaultEnv(): NodeJS.ProcessEnv {
  const { LOG_LEVEL: _level, LOG_FORMAT: _format, NODE_ENV: _mode, ...env } = process.env;
  return env;
}

/** `restwell serve` at its default log settings; `stdio` is a file descriptor (as a process manager collects output) or 'pipe'. */
function serve(args: string[], stdio: number | 'pipe', nodeArgs: string[] = []): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...nodeArgs, 'bin/restwell.js', 'serve', '--port', '0', '--host', '127.0.0.1', ...args], { cwd: ROOT, env: defaultEnv(), stdio: ['ignore', stdio, stdio] });
  if (typeof stdio === 'number') closeSync(stdio);
  return { child, exited: once(child, 'exit').then(([code]) => code as number | null) };
}

/** The port from the start-up banner in `output()`, once it is there. */
function port(output: () => string, exited: Promise<unknown>): Promise<number> {
  let gone = false;
  void exited.then(() => (gone = true));
  return waitFor(() => {
    const m = /on http:\/\/localhost:(\d+)/.exec(output());
    if (!m && gone) throw new Error(`the server exited before listening:\n${output()}`);
    return m ? Number(m[1]) : undefined;
  }, 'the start-up banner');
}

/** The request lines of a log, each parsed (a line that is not complete JSON fails the test). */
function requestLines(text: string): Array<Record<string, unknown>> {
  const lines = text.split('\n').filter((l) => l.startsWith('{'));
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId !== undefined && l.url !== undefined);
}

function assertComplete(line: Record<string, unknown>): void {
  assert.deepEqual(Object.keys(line), FIELDS, JSON.stringify(line));
  assert.equal(line.level, 30);
  assert.equal(typeof line.time, 'number');
  assert.equal(typeof line.ms, 'number');
  assert.equal(line.msg, `${line.method} ${line.url} ${line.status} ${line.ms}ms`);
}

test('to a file: every request line is complete, and the last one before SIGTERM is written before the process exits', { timeout: 120_000 }, async () => {
  const { dir, args } = setUp();
  const file = join(dir, 'output.log');
  const server = serve(args, openSync(file, 'a'));
  try {
    const url = `http://127.0.0.1:${await port(() => readFileSync(file, 'utf8'), server.exited)}`;
    for (let i = 0; i < 40; i++) await (await fetch(`${url}/characters/${i}`)).arrayBuffer();
    await (await fetch(`${url}/characters?last=before-sigterm`)).arrayBuffer();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    const text = readFileSync(file, 'utf8');
    const lines = requestLines(text);
    assert.equal(lines.length, 41, text);
    lines.forEach(assertComplete);
    assert.equal(lines.at(-1)!.url, '/characters?last=before-sigterm');
    assert.match(text.trimEnd().split('\n').at(-1)!, /"msg":"stopped"/);
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
});

test('to a file: the request lines logged before an uncaught error are written before the process dies', { timeout: 120_000 }, async () => {
  const { dir, args } = setUp();
  const file = join(dir, 'output.log');
  // SIGUSR2 makes the server throw an error nothing catches, as a bug would.
  const crash = join(dir, 'crash-on-sigusr2.mjs');
  writeFileSync(crash, "process.on('SIGUSR2', () => setImmediate(() => { throw new Error('a bug nothing catches'); }));\n");
  const server = serve(args, openSync(file, 'a'), ['--import', crash]);
  try {
    const url = `http://127.0.0.1:${await port(() => readFileSync(file, 'utf8'), server.exited)}`;
    for (let i = 0; i < 5; i++) await (await fetch(`${url}/characters/${i}`)).arrayBuffer();
    await (await fetch(`${url}/characters?last=before-crash`)).arrayBuffer();
    // Answered after the line above was logged (its response had finished before this request was sent).
    await (await fetch(`${url}/characters/after`)).arrayBuffer();
    server.child.kill('SIGUSR2');
    assert.notEqual(await server.exited, 0);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /a bug nothing catches/);
    const lines = requestLines(text);
    lines.forEach(assertComplete);
    assert.ok(lines.some((l) => l.url === '/characters?last=before-crash'), text);
    assert.ok(lines.length >= 6, text);
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
});

/**
 * Serves `args` with stdout to a pipe, pauses the pipe's reader while 8 clients send `total` GETs of
 * `padding` extra URL characters (a full pipe must hold the writer up, not lose lines), then resumes
 * it, stops the server with SIGTERM and returns the request lines, each checked complete.
 */
async function linesThroughPausedPipe(args: string[], total: number, padding: string, headers: Record<string, string> = {}) {
  const server = serve(args, 'pipe');
  let out = '';
  server.child.stdout!.on('data', (d) => (out += d));
  server.child.stderr!.on('data', (d) => (out += d));
  try {
    const url = `http://127.0.0.1:${await port(() => out, server.exited)}`;
    server.child.stdout!.pause();
    let next = 0;
    const client = async () => {
      while (next < total) await (await fetch(`${url}/characters/${next++}?padding=${padding}`, { headers })).arrayBuffer();
    };
    await Promise.all(Array.from({ length: 8 }, client));
    server.child.stdout!.resume();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    const lines = requestLines(out);
    lines.forEach(assertComplete);
    assert.equal(lines.length, total);
    return lines;
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
}

test('to a pipe its reader stops reading for a while: no request line is lost or cut', { timeout: 120_000 }, async () => {
  // The pipe's buffer is 64 KiB; 2,000 lines are several times that.
  const lines = await linesThroughPausedPipe(setUp().args, 2000, 'x'.repeat(100));
  assert.equal(new Set(lines.map((l) => l.reqId)).size, 2000);
});

test('serve --workers 2 to one pipe its reader pauses: the workers\' lines never cut into each other', { timeout: 180_000 }, async () => {
  // Each client on a connection of its own, so both workers answer (node:cluster hands out connections in turn).
  const lines = await linesThroughPausedPipe([...setUp().args, '--workers', '2'], 3000, 'y'.repeat(200), { connection: 'close' });
  assert.equal(new Set(lines.map((l) => l.pid)).size, 2, 'both workers answered');
});
