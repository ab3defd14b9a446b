import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { browserSkipReason, launchBrowser, type TestBrowser } from '../../src/test-support/browser.js';
import { listeningServer, PUBLIC_DEMO } from '../../src/test-support/test-server.js';

const skip = browserSkipReason();

/** What the page's script reports of one cross-origin call: the status and the headers it could read, or the error. */
type Outcome = { status: number; etag: string | null; location: string | null; body: unknown } | { error: string };

/** The page's calls: a plain GET, a PATCH that needs a preflight (method, Content-Type, Authorization, If-Match), a GET of a missing record. */
const PAGE_SCRIPT = `async function (base, token) {
  async function outcome(res) {
    try {
      const r = await res;
      return { status: r.status, etag: r.headers.get('etag'), location: r.headers.get('location'), body: await r.json() };
    } catch (err) {
      return { error: String(err) };
    }
  }
  const read = await outcome(fetch(base + '/characters/1'));
  const patch = await outcome(fetch(base + '/characters/1', {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json', authorization: 'Bearer ' + token, 'if-match': read.etag || '*' },
    body: JSON.stringify({ name: 'Homer J.' }),
  }));
  const missing = await outcome(fetch(base + '/characters/999999'));
  return [read, patch, missing];
}`;

describe('a front-end on one port calling the API on another, in Chromium', { skip }, () => {
  let front: { server: RestwellServer; base: string };
  let api: { server: RestwellServer; base: string };
  let browser: TestBrowser;
  let token: string;

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'restwell-front-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>front</title><h1>front-end</h1><script type="module" src="/app.js"></script>');
    writeFileSync(join(dir, 'app.js'), 'document.body.dataset.ready = "yes";\n');
    // The front-end's server has no CORS of its own: it only serves files.
    front = await listeningServer(undefined, { ...PUBLIC_DEMO, server: { static: dir } });
    api = await listeningServer(undefined, { ...PUBLIC_DEMO, server: { cors: { origins: ['http://localhost:*'] } } });
    await api.server.app.inject({ method: 'POST', url: '/characters', payload: { name: 'Homer' } });
    token = (await api.server.context.auth.apiKeys.create({ name: 'page', scopes: ['*'] })).key;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await front?.server.close();
    await api?.server.close();
  });

  /** Opens the front-end at `origin` and runs the page's calls to the API (on localhost). */
  async function callApi(origin: string): Promise<Outcome[]> {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.locator('body[data-ready="yes"]').waitFor();
    assert.equal(await page.locator('h1').textContent(), 'front-end', 'GET / gives the browser index.html');
    const apiBase = api.base.replace('127.0.0.1', 'localhost');
    // A string, not a function: the test's compiler would add helpers the page does not have.
    return page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify(apiBase)}, ${JSON.stringify(token)})`) as Promise<Outcome[]>;
  }

  it('an allowed origin (http://localhost:*) reads answers and their ETag, passes preflights, and reads error answers', async () => {
    const [read, patch, missing] = await callApi(front.base.replace('127.0.0.1', 'localhost'));
    assert.ok('status' in read && read.status === 200, JSON.stringify(read));
    assert.match(String(read.etag), /^".+"$/, 'ETag is exposed');
    assert.ok('status' in patch && patch.status === 200, JSON.stringify(patch));
    assert.notEqual(patch.etag, read.etag, 'the new ETag is exposed');
    assert.equal((patch.body as { name: string }).name, 'Homer J.');
    assert.ok('status' in missing && missing.status === 404, 'the page reads the 404 problem');
    assert.equal((missing as { body: { status: number } }).body.status, 404);
  });

  it('an origin not allowed (http://127.0.0.1:port) gets nothing: the browser refuses every call', async () => {
    const outcomes = await callApi(front.base);
    for (const o of outcomes) assert.ok('error' in o, JSON.stringify(o));
  });
});
