import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RestwellServer } from './server.js';
import { testServer } from '../test-support/test-server.js';
import { ConformanceChecker, type Exchange } from '../test-support/openapi-conformance.js';
import { CONSOLE_CSP } from './console-routes.js';

describe('the web console\'s files under /_', () => {
  let server: RestwellServer;
  const exchanges: Exchange[] = [];
  const get = async (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => {
    const res = await server.app.inject({ method, url, headers });
    exchanges.push({ method, url, status: res.statusCode, headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v])), body: res.body });
    return res;
  };
  before(async () => {
    server = await testServer();
  });
  after(() => server.close());

  it('serves the shell at /_ and /_/, with a strict CSP, no framing, no-cache and an ETag', async () => {
    for (const url of ['/_', '/_/']) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
      assert.match(res.body, /<script type="module" src="\/_\/app\.js"><\/script>/);
      assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
      assert.match(CONSOLE_CSP, /script-src 'self'/);
      assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval/);
      assert.match(CONSOLE_CSP, /connect-src 'self'/);
      assert.match(CONSOLE_CSP, /frame-ancestors 'none'/);
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.match(String(res.headers.etag), /^"[\w-]+"$/);
      assert.equal(res.headers['set-cookie'], undefined);
    }
    // The shell has no inline script or style for the CSP to refuse.
    const shell = (await get('/_')).body;
    assert.doesNotMatch(shell, /<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son\w+=/i);
  });

  it('serves scripts and styles with their types, and 304 to If-None-Match; HEAD has the headers', async () => {
    const types: Record<string, RegExp> = { '/_/app.js': /^text\/javascript/, '/_/api.js': /^text\/javascript/, '/_/console.css': /^text\/css/, '/_/views/record.js': /^text\/javascript/ };
    for (const [url, type] of Object.entries(types)) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), type, url);
      const again = await get(url, { 'if-none-match': String(res.headers.etag) });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '');
      const head = await get(url, {}, 'HEAD');
      assert.equal(head.statusCode, 200);
      assert.equal(head.headers.etag, res.headers.etag);
      assert.equal(head.body, '');
    }
  });

  it('gives the shell to a page of the console, and 404 to any file it does not have, however the path is spelled', async () => {
    assert.match((await get('/_/collections')).body, /<title>Restwell console<\/title>/);
    for (const url of ['/_/nope.js', '/_/..%2Fpackage.json', '/_/%2e%2e%2fpackage.json', '/_/views/..%2Fapp.js', '/_/views/..%2F..%2Fpackage.json', '/_/..%5Csrc%5Capp%5Croutes.ts', '/_/index.html.bak', '/_/.gitignore']) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, url);
    }
    for (const url of ['/_/../package.json', '/_/views/../../package.json', '/_/a/b/c']) {
      const res = await get(url);
      assert.notEqual(res.statusCode, 200, url);
      assert.doesNotMatch(res.body, /"dependencies"/, url);
    }
  });

  it('is linked from the API root, and every answer above conforms to /openapi.json', async () => {
    const root = JSON.parse((await server.app.inject({ url: '/' })).body);
    assert.equal(root._links.console.href, '/_/');
    const doc = JSON.parse((await server.app.inject({ url: '/openapi.json' })).body);
    assert.ok(doc.paths['/_'].get && doc.paths['/_/{asset}'].get && doc.paths['/_/views/{asset}'].get);
    const checker = await ConformanceChecker.create(doc);
    const documented = exchanges.filter((ex) => !/\.\.|\/a\/b\/c/.test(decodeURIComponent(ex.url)));
    const violations = (await Promise.all(documented.map((ex) => checker.check(ex)))).flat();
    assert.deepEqual(violations, []);
  });
});
