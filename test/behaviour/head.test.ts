import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEMO_CONFIG } from '../../src/config/defaults.js';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

/** The demo (public reads, scoped writes, webhook receivers) plus an owner-only resource; a limit high enough for the matrix. */
const CONFIG = {
  ...DEMO_CONFIG,
  auth: { rateLimit: { limit: 100_000, window: '1m' } },
  resources: { ...DEMO_CONFIG.resources, notes: { fields: { text: { type: 'string' } }, access: { read: 'owner', write: 'owner' } } },
};

/** Response headers to compare: all but Date, with the request-counting RateLimit remainder and reset blanked. */
function comparable(headers: Record<string, unknown>): Record<string, unknown> {
  const { date: _date, ...rest } = headers;
  if (typeof rest.ratelimit === 'string') rest.ratelimit = rest.ratelimit.replace(/;r=\d+;t=\d+/, ';r=_;t=_');
  return rest;
}

for (const engine of engines) {
  describe(`HEAD answers exactly as GET, without the body (${engine.name})`, () => {
    let server: RestwellServer;
    const auth: Record<string, Record<string, string>> = { anonymous: {}, invalid: { authorization: 'Bearer rw_not-a-key' } };
    const urls = ['/', '/characters', '/characters?sort=nope', '/characters/1', '/characters/999999', '/notes', '/events', '/events/999999', '/api-keys', '/problems/not-found', '/problems/nope', '/openapi.json', '/docs', '/webhooks/mail', '/nothing-here'];
    before(async () => {
      server = await testServer(engine, CONFIG);
      const key = async (name: string, scopes: string[]) => ({ authorization: `Bearer ${(await server.context.auth.apiKeys.create({ name, scopes })).key}` });
      auth.owner = await key('alice', []);
      auth.admin = await key('admin', ['*']);
      const json = { 'content-type': 'application/json' };
      assert.equal((await server.app.inject({ method: 'POST', url: '/characters', headers: { ...auth.admin, ...json }, payload: { name: 'Homer' } })).statusCode, 201);
      const note = await server.app.inject({ method: 'POST', url: '/notes', headers: { ...auth.owner, ...json }, payload: { text: 'mine' } });
      urls.push(String(note.headers.location));
    });
    after(() => server.close());

    test('every URL × auth state × Accept × conditional header: same status and headers, Content-Length included', async () => {
      const statuses = new Set<number>();
      for (const url of urls) {
        for (const [who, credentials] of Object.entries(auth)) {
          for (const accept of [undefined, 'text/html', 'application/hal+json']) {
            const base = { ...credentials, ...(accept ? { accept } : {}) };
            const current = (await server.app.inject({ url, headers: base })).headers;
            const lastModified = String(current['last-modified'] ?? 'Sun, 06 Nov 1994 08:49:37 GMT');
            const conditions: Array<Record<string, string>> = [
              {},
              { 'if-none-match': String(current.etag ?? '"none"') },
              { 'if-none-match': '"stale"' },
              { 'if-modified-since': lastModified },
              { 'if-unmodified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' },
              { 'if-match': '"stale"' },
            ];
            for (const condition of conditions) {
              const headers = { ...base, ...condition };
              const get = await server.app.inject({ method: 'GET', url, headers });
              const head = await server.app.inject({ method: 'HEAD', url, headers });
              const what = `${url} as ${who}, Accept ${accept ?? '-'}, ${JSON.stringify(condition)}`;
              assert.equal(head.statusCode, get.statusCode, what);
              assert.deepEqual(comparable(head.headers), comparable(get.headers), what);
              assert.equal(head.body, '', what);
              if (get.statusCode !== 304) assert.equal(Number(get.headers['content-length']), Buffer.byteLength(get.rawPayload), what);
              statuses.add(get.statusCode);
            }
          }
        }
      }
      // The matrix reaches every kind of answer a GET can get.
      assert.deepEqual([...statuses].sort(), [200, 304, 400, 401, 403, 404, 405, 412]);
    });

    test('a 304, to GET or HEAD, has no Content-Length and no Content-Type; lists under an owner rule vary on Authorization', async () => {
      for (const url of ['/characters/1', '/openapi.json']) {
        const full = await server.app.inject({ url });
        for (const method of ['GET', 'HEAD'] as const) {
          const cached = await server.app.inject({ method, url, headers: { 'if-none-match': String(full.headers.etag) } });
          assert.equal(cached.statusCode, 304);
          assert.equal(cached.headers.etag, full.headers.etag);
          assert.equal(cached.headers['content-length'], undefined, `${method} ${url}`);
          assert.equal(cached.headers['content-type'], undefined, `${method} ${url}`);
        }
      }
      // On the wire too: Node's fetch (undici) rejects a 304 whose Content-Length is not 0.
      const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const etag = String((await fetch(`${address}/characters/1`)).headers.get('etag'));
      const get = await fetch(`${address}/characters/1`, { headers: { 'if-none-match': etag } });
      assert.equal(await get.text(), '');
      const head = await fetch(`${address}/characters/1`, { method: 'HEAD', headers: { 'if-none-match': etag } });
      assert.deepEqual([get.status, head.status], [304, 304]);
      // Connection management is the transport's, not the response's.
      const wire = (r: Response) => [...r.headers].filter(([name]) => !['date', 'ratelimit', 'connection', 'keep-alive'].includes(name));
      assert.deepEqual(wire(head), wire(get));
      assert.equal((await server.app.inject({ url: '/notes', headers: auth.owner })).headers.vary, 'Authorization, Accept');
      assert.equal((await server.app.inject({ url: '/notes' })).headers.vary, 'Authorization, Accept', 'the 401 depends on the credentials too (and is a page for a browser)');
      assert.equal((await server.app.inject({ url: '/characters', headers: auth.owner })).headers.vary, 'Accept', 'a public list is the same for everyone');
    });
  });
}
