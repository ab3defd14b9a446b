import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { segmentsOf } from '../../src/app/static-site.js';
import { ConfigError } from '../../src/config/load.js';
import { engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { ROOT, startServe } from '../support-process.js';

const engine = engines[0];
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const BIG = Buffer.alloc(3 * 1024 * 1024 + 17, 'abcdefghij');

/**
 * A front-end folder with every case: files of several types, a folder with and one without an
 * index.html, dotfiles, links that stay inside and links that lead out, and files whose names the
 * API's own routes take. Beside it (outside) a secret no request may read.
 */
function site(): { dir: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'restwell-static-'));
  const dir = join(base, 'public');
  const outside = join(base, 'secret.txt');
  writeFileSync(outside, 'TOP SECRET');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  mkdirSync(join(dir, 'empty'));
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>front</title>');
  writeFileSync(join(dir, 'app.js'), 'console.log("hi");\n');
  writeFileSync(join(dir, 'style.css'), 'body{}');
  writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'data.bin'), Buffer.from([0, 1, 2, 3]));
  writeFileSync(join(dir, 'big.mp4'), BIG);
  writeFileSync(join(dir, 'sub', 'index.html'), '<p>sub</p>');
  writeFileSync(join(dir, '.env'), 'SECRET=1');
  writeFileSync(join(dir, '.git', 'config'), '[core]');
  writeFileSync(join(dir, 'characters'), 'a file the API route hides');
  writeFileSync(join(dir, 'openapi.json'), '{"not":"the API"}');
  symlinkSync(outside, join(dir, 'escape.txt'));
  symlinkSync(base, join(dir, 'up'));
  symlinkSync(join(dir, 'app.js'), join(dir, 'alias.js'));
  symlinkSync(join(dir, '.env'), join(dir, 'env.txt'));
  return { dir, outside };
}

describe('--static: a front-end beside the API', () => {
  let server: RestwellServer;
  let dir: string;
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' | 'OPTIONS' | 'DELETE' = 'GET') => server.app.inject({ method, url, headers });
  before(async () => {
    ({ dir } = site());
    server = await testServer(engine, { ...PUBLIC_DEMO, server: { static: dir } });
  });
  after(() => server.close());

  test('files with their Content-Type, nosniff, a strong ETag, Last-Modified and no-cache', async () => {
    const types: Record<string, string> = {
      '/app.js': 'text/javascript; charset=utf-8',
      '/style.css': 'text/css; charset=utf-8',
      '/logo.svg': 'image/svg+xml',
      '/data.bin': 'application/octet-stream',
      '/index.html': 'text/html; charset=utf-8',
      '/big.mp4': 'video/mp4',
    };
    for (const [url, type] of Object.entries(types)) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-type'], type, url);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]+"$/, 'strong: no W/');
      assert.ok(res.headers['last-modified'] && !Number.isNaN(Date.parse(String(res.headers['last-modified']))));
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.equal(res.headers['accept-ranges'], 'bytes');
    }
    assert.equal((await get('/app.js')).body, 'console.log("hi");\n');
    const big = await get('/big.mp4');
    assert.equal(big.rawPayload.length, BIG.length);
    assert.ok(big.rawPayload.equals(BIG), 'a large file is streamed whole');
    assert.equal(big.headers['content-length'], String(BIG.length));
  });

  test('304 on If-None-Match (weak comparison) and on If-Modified-Since; If-None-Match wins', async () => {
    for (const url of ['/app.js', '/big.mp4']) {
      const first = await get(url);
      const etag = String(first.headers.etag);
      const lastModified = String(first.headers['last-modified']);
      const same = await get(url, { 'if-none-match': `"other", W/${etag}` });
      assert.equal(same.statusCode, 304, url);
      assert.equal(same.body, '');
      assert.equal(same.headers.etag, etag);
      assert.equal((await get(url, { 'if-modified-since': lastModified })).statusCode, 304);
      assert.equal((await get(url, { 'if-none-match': '"stale"' })).statusCode, 200);
      assert.equal((await get(url, { 'if-none-match': '"stale"', 'if-modified-since': lastModified })).statusCode, 200, 'If-Modified-Since is ignored when If-None-Match is sent');
      assert.equal((await get(url, { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' })).statusCode, 200);
      assert.equal((await get(url, { 'if-modified-since': 'not a date' })).statusCode, 200);
    }
  });

  test('HEAD answers as GET without the body, Content-Length included', async () => {
    for (const url of ['/app.js', '/big.mp4', '/sub/', '/sub', '/nope.js', '/.env']) {
      const got = await get(url);
      const head = await get(url, {}, 'HEAD');
      assert.equal(head.statusCode, got.statusCode, url);
      assert.equal(head.body, '', url);
      const { date: _a, ...g } = got.headers;
      const { date: _b, ...h } = head.headers;
      assert.deepEqual(h, g, url);
    }
  });

  test('one byte range: 206 with Content-Range; several ranges or another version: the whole file; past the end: 416', async () => {
    const part = await get('/app.js', { range: 'bytes=0-6' });
    assert.equal(part.statusCode, 206);
    assert.equal(part.body, 'console');
    assert.equal(part.headers['content-range'], 'bytes 0-6/19');
    assert.equal((await get('/app.js', { range: 'bytes=-3' })).body, ');\n');
    assert.equal((await get('/app.js', { range: 'bytes=15-' })).body, '");\n');
    const tail = await get('/big.mp4', { range: `bytes=${BIG.length - 5}-` });
    assert.equal(tail.statusCode, 206);
    assert.ok(tail.rawPayload.equals(BIG.subarray(BIG.length - 5)));
    assert.equal(tail.headers['content-length'], '5');
    assert.equal((await get('/app.js', { range: 'bytes=0-1,4-5' })).statusCode, 200);
    assert.equal((await get('/app.js', { range: 'lines=1-2' })).statusCode, 200);
    const etag = String(part.headers.etag);
    assert.equal((await get('/app.js', { range: 'bytes=0-1', 'if-range': etag })).statusCode, 206);
    assert.equal((await get('/app.js', { range: 'bytes=0-1', 'if-range': '"older"' })).statusCode, 200);
    const past = await get('/app.js', { range: 'bytes=100-' });
    assert.equal(past.statusCode, 416);
    assert.equal(past.headers['content-range'], 'bytes */19');
    assert.equal(past.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(past.headers.etag, undefined);
    assert.match(past.json().detail, /has 19/);
  });

  test('folders: redirected to their /, served as their index.html, never listed', async () => {
    const redirect = await get('/sub?x=1');
    assert.equal(redirect.statusCode, 301);
    assert.equal(redirect.headers.location, '/sub/?x=1');
    assert.equal((await get('/sub/')).body, '<p>sub</p>');
    const empty = await get('/empty/');
    assert.equal(empty.statusCode, 404);
    assert.match(empty.json().detail, /never listed/);
  });

  test('dotfiles, links out of the folder and links to dotfiles are 404; links inside it are served', async () => {
    for (const url of ['/.env', '/.git/config', '/%2eenv', '/escape.txt', '/up/secret.txt', '/env.txt', '/a//b']) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8', url);
      assert.doesNotMatch(res.body, /TOP SECRET|SECRET=1|\[core\]/, url);
    }
    assert.match((await get('/.env')).json().detail, /dotfiles are never served/);
    assert.equal((await get('/alias.js')).body, 'console.log("hi");\n');
    // Out through a link and back in: the real path is the folder's own app.js, which is served anyway.
    assert.equal((await get('/up/public/app.js')).body, 'console.log("hi");\n');
  });

  test('the API\'s routes win over files of the same path', async () => {
    const list = await get('/characters');
    assert.equal(list.statusCode, 200);
    assert.match(String(list.headers['content-type']), /json/);
    assert.notEqual(list.body, 'a file the API route hides');
    assert.equal((await get('/openapi.json')).json().openapi, '3.1.0');
    assert.equal((await get('/characters/99999')).json().detail.includes('characters'), true, 'a missing record is the API\'s 404, not a file lookup');
  });

  test('GET /: index.html for a browser, the API root for JSON clients; both vary by Accept', async () => {
    const page = await get('/', { accept: BROWSER });
    assert.equal(page.statusCode, 200);
    assert.equal(page.body, '<!doctype html><title>front</title>');
    assert.match(String(page.headers.vary), /Accept/);
    assert.equal((await get('/', { accept: BROWSER, 'if-none-match': String(page.headers.etag) })).statusCode, 304);
    for (const accept of [undefined, 'application/json', 'application/hal+json', '*/*']) {
      const api = await get('/', accept ? { accept } : {});
      assert.equal(api.json().name, 'Restwell', String(accept));
      assert.match(String(api.headers.vary), /Accept/);
    }
  });

  test('other methods: 405 with Allow where a file is, 404 where none is; OPTIONS likewise', async () => {
    const post = await get('/app.js', {}, 'POST');
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal((await get('/nope', {}, 'DELETE')).statusCode, 404);
    assert.equal((await get('/nope', {}, 'POST')).statusCode, 404);
    assert.equal((await get('/app.js', {}, 'OPTIONS')).statusCode, 204);
    assert.equal((await get('/nope', {}, 'OPTIONS')).statusCode, 404);
  });

  test('the OpenAPI document leaves the catch-all out', async () => {
    const doc = (await get('/openapi.json')).json();
    assert.ok(!Object.keys(doc.paths).some((p) => p.includes('*')));
  });
});

describe('--static: URL paths that could leave the folder', () => {
  test('each segment is decoded on its own; ., .., dotfiles, slashes, backslashes, NUL and bad UTF-8 name no file', () => {
    assert.deepEqual(segmentsOf('/'), []);
    assert.deepEqual(segmentsOf('/a/b%20c.js'), ['a', 'b c.js']);
    assert.deepEqual(segmentsOf('/dir/'), ['dir']);
    for (const path of ['/..', '/%2e%2e/x', '/%2E%2E/x', '/a/%2e/b', '/a%2f..%2fb', '/..%5cx', '/a\\..\\b', '/a%00.js', '/a%0a', '/%ff', '//x', '/a//b', '/.hidden', '/%2ehidden', 'relative']) {
      assert.equal(typeof segmentsOf(path), 'string', path);
    }
  });

  test('raw requests on a real socket never reach a file outside the folder', async () => {
    const { dir } = site();
    const server = await testServer(engine, { ...PUBLIC_DEMO, server: { static: dir } });
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (server.app.server.address() as { port: number }).port;
      const raw = (path: string) =>
        new Promise<string>((resolve, reject) => {
          // Written, not ended: the server closes the connection once it has answered (Connection: close).
          const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
          let text = '';
          socket.setEncoding('latin1').on('data', (d) => (text += d)).on('end', () => resolve(text)).on('error', reject);
        });
      const attempts = ['/../secret.txt', '/%2e%2e/secret.txt', '/%2E%2e/secret.txt', '/sub/../../secret.txt', '/sub/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/..\\secret.txt', '/%5c..%5csecret.txt', '/escape.txt', '/up/secret.txt', '/app.js%00.html', '/.env', '/%2eenv', '/./.env', '/sub/.', '//etc/passwd', '/%2f%2fetc%2fpasswd'];
      for (const path of attempts) {
        const text = await raw(path);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
        assert.ok(status >= 400 && status < 500, `${path}: ${text.slice(0, 80)}`);
        assert.doesNotMatch(text, /TOP SECRET|SECRET=1|root:/, path);
      }
      const ok = await raw('/app.js');
      assert.match(ok, /^HTTP\/1\.1 200/);
      assert.match(ok, /console\.log/);
    } finally {
      await server.close();
    }
  });
});

describe('--static: configuration', () => {
  test('a folder that does not exist stops the start with a ConfigError naming server.static', async () => {
    await assert.rejects(testServer(engine, { ...PUBLIC_DEMO, server: { static: join(tmpdir(), 'restwell-no-such-folder') } }), (err: Error) => err instanceof ConfigError && /server\.static/.test(err.message));
  });

  test('without server.static nothing changes: no catch-all, and browsers get the API root as HTML', async () => {
    const server = await testServer(engine, PUBLIC_DEMO);
    try {
      assert.equal((await server.app.inject({ url: '/app.js' })).statusCode, 404);
      assert.match((await server.app.inject({ url: '/', headers: { accept: BROWSER } })).body, /Restwell/);
      assert.equal((await server.app.inject({ method: 'POST', url: '/nope' })).statusCode, 404);
    } finally {
      await server.close();
    }
  });

  test('restwell serve --static DIR serves the folder', async () => {
    const { dir } = site();
    const proc = await startServe(['--static', dir, '--db', join(dir, '..', 'serve.db')]);
    try {
      const res = await fetch(`${proc.url}/app.js`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), 'console.log("hi");\n');
      assert.match(proc.output(), /"frontEnd":"files of /);
    } finally {
      await proc.stop();
    }
  });

  test('restwell serve db.json serves ./public of the working directory, with CORS for loopback pages', async () => {
    const { dir } = site();
    const cwd = join(dir, '..');
    writeFileSync(join(cwd, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'hello' }] }));
    // From the data file's folder, as a json-server user runs it: tsx and the CLI named by absolute paths.
    const tsx = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', tsx, join(ROOT, 'src/cli/main.ts'), 'serve', 'db.json', '--port', '0', '--host', '127.0.0.1', '--db', join(cwd, 'data.db')], {
      cwd,
      env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr!.on('data', (d) => (out += d));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /"url":"http:\/\/localhost:(\d+)"/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        child.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${out}`)));
      });
      const base = `http://127.0.0.1:${port}`;
      const page = await fetch(`${base}/`, { headers: { accept: BROWSER } });
      assert.equal(await page.text(), '<!doctype html><title>front</title>');
      const posts = await fetch(`${base}/posts`, { headers: { origin: 'http://localhost:5173' } });
      assert.equal(posts.headers.get('access-control-allow-origin'), 'http://localhost:5173');
      assert.equal(posts.status, 200);
      assert.match(await posts.text(), /"hello"/);
      assert.match(out, /"cors":"pages of http:\/\/localhost:\*/);
    } finally {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
    }
  });
});
