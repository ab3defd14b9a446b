import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { withDataFileDefaults } from '../../src/cli/serve.js';
import { DEMO_CONFIG } from '../../src/config/defaults.js';
import { ConfigError, resolveConfig } from '../../src/config/load.js';
import { LOOPBACK_ORIGINS } from '../../src/http/cors.js';
import { engines, listeningServer, testServer } from '../../src/test-support/test-server.js';

const ORIGINS = ['http://localhost:*', 'https://app.example.com', 'https://*.example.org'];
/** The demo (public reads, scoped writes) with CORS for a dev server, one site and one domain's subdomains. */
const CONFIG = { ...DEMO_CONFIG, server: { cors: { origins: ORIGINS, maxAge: '5m' } } };
const VITE = 'http://localhost:5173';
/** A config with nothing to substitute, for the loader's own tests. */
const BARE = { resources: { notes: { fields: { text: { type: 'string' } } } } };

for (const engine of engines) {
  describe(`CORS (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: string) => server.app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    const preflight = (url: string, method: string, origin = VITE, requested?: string) =>
      inject('OPTIONS', url, { origin, 'access-control-request-method': method, ...(requested ? { 'access-control-request-headers': requested } : {}) });
    before(async () => {
      server = await testServer(engine, CONFIG);
    });
    after(() => server.close());

    test('a preflight from an allowed origin: 204, the origin echoed, the path\'s methods, the headers a page may send, Max-Age', async () => {
      const res = await preflight('/characters', 'POST', VITE, 'content-type, idempotency-key, x-trace-id');
      assert.equal(res.statusCode, 204);
      assert.equal(res.headers['access-control-allow-origin'], VITE);
      assert.match(String(res.headers.vary), /\bOrigin\b/);
      assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, POST, OPTIONS');
      assert.equal(res.headers.allow, 'GET, HEAD, POST, OPTIONS');
      const allowed = String(res.headers['access-control-allow-headers']).split(', ');
      for (const h of ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'Idempotency-Key', 'Prefer', 'x-trace-id']) assert.ok(allowed.includes(h), h);
      assert.equal(res.headers['access-control-max-age'], '300');
      assert.equal(res.headers['access-control-allow-credentials'], undefined, 'never credentials: bearer tokens, no cookies');
      const record = await preflight('/characters/1', 'PATCH');
      assert.equal(record.headers['access-control-allow-methods'], 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
    });

    test('requested headers that claim where a request came from, malformed ones and overlong lists are not allowed', async () => {
      const res = await preflight('/characters', 'POST', VITE, 'x-forwarded-for, forwarded, x-real-ip, x-http-method-override, cookie, bad header, x-ok');
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(', ');
      for (const h of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-http-method-override', 'cookie', 'bad header']) assert.ok(!allowed.includes(h), h);
      assert.ok(allowed.includes('x-ok'));
      const many = Array.from({ length: 40 }, (_, i) => `x-h${i}`).join(', ');
      assert.ok(!String((await preflight('/characters', 'POST', VITE, many)).headers['access-control-allow-headers']).includes('x-h1'));
    });

    test('a preflight for a record that does not exist is still 204: the request it clears gets its 404, readable by the page', async () => {
      assert.equal((await preflight('/characters/999999', 'DELETE')).statusCode, 204);
      const res = await inject('DELETE', '/characters/999999', { origin: VITE });
      assert.equal(res.statusCode, 401, 'writes need a token in the demo');
      assert.equal(res.headers['access-control-allow-origin'], VITE);
    });

    test('responses to an allowed origin carry Allow-Origin and expose the API\'s headers; errors too', async () => {
      const list = await inject('GET', '/characters', { origin: VITE });
      assert.equal(list.statusCode, 200);
      assert.equal(list.headers['access-control-allow-origin'], VITE);
      assert.match(String(list.headers.vary), /\bOrigin\b/);
      assert.match(String(list.headers.vary), /\bAccept\b/, 'the API\'s own Vary is kept');
      const exposed = String(list.headers['access-control-expose-headers']).split(', ');
      for (const h of ['ETag', 'Location', 'Link', 'X-Total-Count', 'Retry-After', 'Idempotent-Replayed', 'RateLimit', 'WWW-Authenticate']) assert.ok(exposed.includes(h), h);
      const errors = [
        await inject('GET', '/characters/999999', { origin: VITE }),
        await inject('GET', '/nothing-here', { origin: VITE }),
        await inject('POST', '/characters', { origin: VITE, 'content-type': 'application/json' }, '{"name":"x"}'),
        await inject('POST', '/characters', { origin: VITE, 'content-type': 'text/plain' }, 'x'),
        await inject('PUT', '/characters', { origin: VITE }),
        await inject('GET', '/characters?sort=nope', { origin: VITE }),
        await inject('GET', '/characters/%E0%A4%A', { origin: VITE }),
      ];
      assert.deepEqual(errors.map((r) => r.statusCode), [404, 404, 401, 401, 405, 400, 400]);
      for (const res of errors) {
        assert.equal(res.headers['access-control-allow-origin'], VITE, `${res.statusCode} ${res.body.slice(0, 80)}`);
        assert.ok(res.headers['access-control-expose-headers']);
      }
    });

    test('origins: exact, any port of a host, any subdomain; never look-alikes, another scheme, or null', async () => {
      const allowed = ['http://localhost:5173', 'http://localhost:3000', 'http://localhost', 'https://app.example.com', 'https://a.example.org', 'https://b.c.example.org', 'HTTP://LOCALHOST:8080'];
      const refused = ['http://localhost.evil.com', 'http://evil.com', 'https://localhost:5173', 'http://app.example.com', 'https://app.example.com.evil.com', 'https://example.org', 'https://evil.com/https://app.example.com', 'null', 'http://127.0.0.1:5173', ''];
      for (const origin of allowed) assert.ok((await inject('GET', '/characters', { origin })).headers['access-control-allow-origin'], origin);
      for (const origin of refused) {
        const res = await inject('GET', '/characters', { origin });
        assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
        assert.equal(res.headers['access-control-expose-headers'], undefined, origin);
        assert.match(String(res.headers.vary), /\bOrigin\b/, 'a cache must not hand this answer to an allowed origin');
      }
    });

    test('a preflight from an origin not allowed is answered as a plain OPTIONS: no CORS headers, so the browser refuses', async () => {
      const res = await preflight('/characters', 'POST', 'https://evil.com');
      assert.equal(res.statusCode, 204);
      assert.equal(res.headers.allow, 'GET, HEAD, POST, OPTIONS');
      for (const h of ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-max-age']) assert.equal(res.headers[h], undefined, h);
    });

    test('the event stream carries the CORS headers too', async () => {
      const { server: listening, base } = await listeningServer(engine, CONFIG);
      try {
        const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
          const req = httpRequest(`${base}/events/stream`, { headers: { origin: VITE, accept: 'text/event-stream', authorization: 'Bearer nope' } }, (res) => {
            resolve(res.headers);
            res.destroy();
          });
          req.on('error', reject).end();
        });
        assert.equal(headers['access-control-allow-origin'], VITE);
      } finally {
        await listening.close();
      }
    });
  });
}

describe('CORS over a real socket', () => {
  test('a preflight then the request, as a browser sends them', async () => {
    const { server, base } = await listeningServer(engines[0], { ...DEMO_CONFIG, server: { cors: { origins: ['http://localhost:*'] } } });
    const send = (method: string, path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on('error', reject).end();
      });
    try {
      const pre = await send('OPTIONS', '/characters', { origin: VITE, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers['access-control-allow-origin'], VITE);
      assert.match(String(pre.headers['access-control-allow-headers']), /Authorization/);
      const got = await send('GET', '/characters', { origin: VITE });
      assert.equal(got.status, 200);
      assert.equal(got.headers['access-control-allow-origin'], VITE);
      assert.match(String(got.headers['access-control-expose-headers']), /ETag/);
    } finally {
      await server.close();
    }
  });
});

describe('CORS configuration', () => {
  test('off by default: no CORS headers, no Vary: Origin, preflights answered as plain OPTIONS', async () => {
    const server = await testServer(engines[0], DEMO_CONFIG);
    try {
      const res = await server.app.inject({ url: '/characters', headers: { origin: VITE } });
      assert.equal(res.headers['access-control-allow-origin'], undefined);
      assert.doesNotMatch(String(res.headers.vary), /Origin/);
      const pre = await server.app.inject({ method: 'OPTIONS', url: '/characters', headers: { origin: VITE, 'access-control-request-method': 'POST' } });
      assert.equal(pre.headers['access-control-allow-origin'], undefined);
    } finally {
      await server.close();
    }
  });

  test('origins must be origins: a scheme and a host, * only as the port or the leftmost labels', () => {
    for (const origin of ['localhost:5173', 'http://localhost:5173/', 'http://*', 'http://local*host', 'ftp://x.com', 'http://x.com/path', 'null']) {
      assert.throws(() => resolveConfig({ ...BARE, server: { cors: { origins: [origin] } } }), ConfigError, origin);
    }
    assert.throws(() => resolveConfig({ ...BARE, server: { cors: { origins: [] } } }), ConfigError);
    const ok = resolveConfig({ ...BARE, server: { cors: { origins: ['*', 'http://[::1]:*', 'https://*.example.com', 'http://Localhost:3000'] } } });
    assert.deepEqual(ok.server.cors, { origins: ['*', 'http://[::1]:*', 'https://*.example.com', 'http://localhost:3000'], maxAgeSeconds: 600 });
  });

  test('serve <file.json>: loopback origins and ./public when the config file says nothing; the file wins when it does', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'restwell-cors-'));
    assert.deepEqual(withDataFileDefaults({}, cwd).fallbacks, { corsOrigins: LOOPBACK_ORIGINS });
    mkdirSync(join(cwd, 'public'));
    const { fallbacks } = withDataFileDefaults({}, cwd);
    assert.deepEqual(fallbacks, { static: join(cwd, 'public'), corsOrigins: LOOPBACK_ORIGINS });
    const defaulted = resolveConfig(BARE, { fallbacks });
    assert.deepEqual(defaulted.server.cors?.origins, LOOPBACK_ORIGINS);
    assert.equal(defaulted.server.static, join(cwd, 'public'));
    const own = resolveConfig({ ...BARE, server: { static: 'site', cors: { origins: ['https://app.example.com'] } } }, { fallbacks });
    assert.deepEqual(own.server.cors?.origins, ['https://app.example.com']);
    assert.equal(own.server.static, 'site');
    assert.equal(resolveConfig({ ...BARE, server: { static: 'site' } }, { fallbacks, overrides: { static: 'flag' } }).server.static, 'flag', '--static wins');
  });

  test('json-server lists keep the whole exposed list beside X-Total-Count; origins not allowed are exposed nothing', async () => {
    const open = { read: 'public', write: 'public' };
    const server = await testServer(engines[0], { compat: 'json-server', server: { cors: { origins: LOOPBACK_ORIGINS } }, resources: { posts: { fields: { title: { type: 'string' } }, access: open } } });
    try {
      await server.app.inject({ method: 'POST', url: '/posts', payload: { title: 'a' } });
      const res = await server.app.inject({ url: '/posts?_page=1', headers: { origin: VITE } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-total-count'], '1');
      assert.equal(res.headers['access-control-allow-origin'], VITE);
      const exposed = String(res.headers['access-control-expose-headers']).split(', ');
      for (const h of ['ETag', 'Location', 'X-Total-Count', 'Link']) assert.ok(exposed.includes(h), h);
      assert.equal(exposed.length, new Set(exposed.map((h) => h.toLowerCase())).size, 'no name twice');
      const other = await server.app.inject({ url: '/posts?_page=1', headers: { origin: 'https://evil.com' } });
      assert.equal(other.headers['access-control-allow-origin'], undefined);
      assert.equal(other.headers['access-control-expose-headers'], undefined);
    } finally {
      await server.close();
    }
  });

  test('loopback patterns: any port of localhost, 127.0.0.1 and [::1], over http only', async () => {
    const server = await testServer(engines[0], { ...DEMO_CONFIG, server: { cors: { origins: LOOPBACK_ORIGINS } } });
    try {
      for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8000', 'http://[::1]:5173']) {
        assert.equal((await server.app.inject({ url: '/characters', headers: { origin } })).headers['access-control-allow-origin'], origin);
      }
      for (const origin of ['http://192.168.1.2:5173', 'https://localhost:5173', 'http://127.0.0.2:80', 'http://localhost.example.com']) {
        assert.equal((await server.app.inject({ url: '/characters', headers: { origin } })).headers['access-control-allow-origin'], undefined, origin);
      }
    } finally {
      await server.close();
    }
  });
});
