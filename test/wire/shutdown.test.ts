import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { waitFor } from '../../src/test-support/wait-for.js';
import { apiKeyHeaders, ROOT } from '../support-process.js';

/** What the server sends once it has read the headers of a request that asked `Expect: 100-continue`. */
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

/** `node bin/restwell.js serve` as a user runs it, on a free port, logging at info (JSON lines: stdout is a pipe). */
async function serve(args: string[]): Promise<{ child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['bin/restwell.js', 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const port = await until(() => Number(/on http:\/\/localhost:(\d+)/.exec(out)?.[1]) || undefined, () => `the server did not start:\n${out}`, exited);
  return { child, port, output: () => out, exited };
}

/** Polls `check` until it returns something (or the process exits first, which fails): waits for the event, not a number of tries. */
async function until<T>(check: () => T | undefined, what: () => string, exited?: Promise<unknown>): Promise<T> {
  let gone = false;
  void exited?.then(() => (gone = true));
  return waitFor(() => {
    const value = check();
    if (value === undefined && gone) throw new Error(what());
    return value;
  }, 'the server', 50).catch((err: Error) => {
    throw new Error(err.message.startsWith('still waiting') ? what() : err.message);
  });
}

/** Everything a socket receives until it closes (`so far` meanwhile). */
function received(socket: Socket): Promise<string> & { soFar: () => string } {
  let text = '';
  socket.on('data', (d) => (text += d));
  const all = new Promise<string>((resolve, reject) => {
    socket.once('close', () => resolve(text));
    socket.once('error', reject);
  });
  return Object.assign(all, { soFar: () => text });
}

test('SIGTERM drains: a request under way completes, event streams end cleanly, new connections are refused, the process exits 0', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-shutdown-'));
  const db = join(dir, 'data.db');
  const config = join(dir, 'restwell.yaml');
  writeFileSync(config, 'resources:\n  characters:\n    fields:\n      name: { type: string, required: true }\n    access: { read: public, write: public }\nauth: {}\n');
  // A key for the event stream, made with the CLI on the same database.
  const { authorization } = apiKeyHeaders(['--config', config, '--db', db], 'events:read');

  const server = await serve(['--config', config, '--db', db]);
  try {
    // An event stream, open and idle.
    const stream = connect(server.port, '127.0.0.1');
    const streamText = received(stream);
    stream.write(`GET /events/stream HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${authorization}\r\nAccept: text/event-stream\r\n\r\n`);
    // A slow upload: headers and half the body now, the rest after SIGTERM.
    const body = JSON.stringify({ name: 'Sent while the server was stopping' });
    const upload = connect(server.port, '127.0.0.1');
    const uploadText = received(upload);
    // Expect: 100-continue makes the server say when it has read the headers and handed the request on:
    // the signal is sent after that event, not after a guess at how long it takes.
    upload.write(`POST /characters HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`);
    await until(() => (streamText.soFar().startsWith('HTTP/1.1 200') ? true : undefined), () => `the stream did not open: ${streamText.soFar()}`, server.exited);
    await until(() => (uploadText.soFar().startsWith(CONTINUE) ? true : undefined), () => `the upload's headers were not read: ${uploadText.soFar()}`, server.exited);
    upload.write(body.slice(0, 10));

    server.child.kill('SIGTERM');
    await until(() => (server.output().includes('SIGTERM: draining') ? true : undefined), () => `no drain:\n${server.output()}`, server.exited);

    // The listener is closed: a new connection is refused.
    const late = connect(server.port, '127.0.0.1');
    const [error] = (await once(late, 'error')) as [NodeJS.ErrnoException];
    assert.equal(error.code, 'ECONNREFUSED');

    // write, not end: a client that half-closes its side gets its request aborted by Node.
    upload.write(body.slice(10));
    const answer = (await uploadText).slice(CONTINUE.length);
    assert.match(answer, /^HTTP\/1.1 201 /, answer + server.output());
    const streamed = await streamText;
    assert.match(streamed, /^HTTP\/1.1 200 /);
    assert.match(streamed, /content-type: text\/event-stream/i);

    assert.equal(await server.exited, 0, server.output());
    assert.match(server.output(), /"msg":"stopped"/);
    assert.ok(!/Error|\n\s+at /.test(server.output()), server.output());
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
  // The write acknowledged during the drain is durable.
  const sqlite = new BetterSqlite3(db, { readonly: true });
  try {
    assert.equal((sqlite.prepare('SELECT count(*) AS n FROM characters').get() as { n: number }).n, 1);
  } finally {
    sqlite.close();
  }
});

test('a request still under way at server.drainTimeout is cut off, and the process still exits 0', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-shutdown-'));
  const config = join(dir, 'restwell.yaml');
  writeFileSync(config, 'server: { drainTimeout: 300ms }\nresources:\n  characters:\n    fields:\n      name: { type: string, required: true }\n    access: { read: public, write: public }\n');
  const server = await serve(['--config', config, '--db', join(dir, 'data.db')]);
  try {
    const upload = connect(server.port, '127.0.0.1');
    const text = received(upload);
    const uploadText = text.catch(() => 'reset');
    upload.write('POST /characters HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
    // Under way for sure: the server has read the headers (it says 100 Continue) and has part of the body.
    await until(() => (text.soFar().startsWith(CONTINUE) ? true : undefined), () => `the upload's headers were not read: ${text.soFar()}`, server.exited);
    upload.write('{"name":');
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.output());
    assert.ok([CONTINUE, 'reset'].includes(await uploadText), 'no answer but 100 Continue: the connection was closed');
    assert.match(server.output(), /cut off/);
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
});
