import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { AUTH_CONFIG } from './auth-support.js';

/** One request on a real socket to 127.0.0.1, with the Host header a client chose. */
function send(port: number, host: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host, ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const form = (clientId: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
  'content-type': 'application/x-www-form-urlencoded',
});

for (const engine of engines) {
  describe(`the server's origin is decided at start, never by the Host header (${engine.name})`, () => {
    let server: RestwellServer;
    let client: { id: string; secret: string };

    before(async () => {
      server = await testServer(engine, AUTH_CONFIG);
      const created = await server.context.auth.clients.create({ name: 'writer', scopes: ['characters:write'] });
      client = { id: created.info.clientId, secret: created.clientSecret };
    });
    after(() => server.close());

    test('inject: a token fetched through Host 127.0.0.1 works through Host localhost and any other name', async () => {
      const got = await server.app.inject({ method: 'POST', url: '/oauth/token', headers: { ...form(client.id, client.secret), host: '127.0.0.1:8080' }, payload: 'grant_type=client_credentials' });
      assert.equal(got.statusCode, 200, got.body);
      const token = got.json().access_token as string;
      // Not yet listening: the configured host (0.0.0.0, every interface, read as localhost) and port.
      assert.equal(decodeJwt(token).iss, 'http://localhost:8080');
      assert.equal(decodeJwt(token).aud, 'http://localhost:8080');
      for (const host of ['localhost:8080', 'localhost', '[::1]:8080', 'evil.example']) {
        const res = await server.app.inject({ method: 'POST', url: '/characters', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', host }, payload: { name: `via ${host}` } });
        assert.equal(res.statusCode, 201, `${host}: ${res.body}`);
      }
    });

    test('inject: a spoofed Host changes neither problem types nor the OAuth metadata', async () => {
      for (const host of ['evil.example', 'localhost:1', '127.0.0.1:8080']) {
        const res = await server.app.inject({ method: 'GET', url: '/characters/999999', headers: { host, 'x-forwarded-host': 'evil.example' } });
        assert.equal(res.json().type, 'http://localhost:8080/problems/not-found', host);
        const meta = (await server.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host } })).json();
        assert.equal(meta.issuer, 'http://localhost:8080', host);
        assert.equal(meta.token_endpoint, 'http://localhost:8080/oauth/token', host);
        assert.equal(meta.jwks_uri, 'http://localhost:8080/.well-known/jwks.json', host);
      }
      const html = await server.app.inject({ method: 'GET', url: '/nope', headers: { host: 'evil.example', accept: 'text/html' } });
      assert.doesNotMatch(html.body, /evil\.example/, 'the browsable problem page neither');
    });

    test('real socket: the origin is the address and port bound; a token works through every Host name', async () => {
      const listening = await testServer(engine, AUTH_CONFIG);
      try {
        await listening.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (listening.app.server.address() as { port: number }).port;
        const origin = `http://127.0.0.1:${port}`;
        const c = await listening.context.auth.clients.create({ name: 'w', scopes: ['characters:write'] });
        const got = await send(port, `127.0.0.1:${port}`, 'POST', '/oauth/token', form(c.info.clientId, c.clientSecret), 'grant_type=client_credentials');
        assert.equal(got.status, 200);
        assert.equal(decodeJwt(got.json.access_token).iss, origin);
        for (const host of [`localhost:${port}`, 'localhost', 'evil.example']) {
          const res = await send(port, host, 'POST', '/characters', { authorization: `Bearer ${got.json.access_token}`, 'content-type': 'application/json' }, JSON.stringify({ name: `via ${host}` }));
          assert.equal(res.status, 201, `${host}: ${JSON.stringify(res.json)}`);
          assert.equal((await send(port, host, 'GET', '/characters/999999')).json.type, `${origin}/problems/not-found`, host);
          assert.equal((await send(port, host, 'GET', '/.well-known/oauth-authorization-server')).json.issuer, origin, host);
        }
      } finally {
        await listening.close();
      }
    });

    test('with server.publicUrl, that is the origin, whatever the Host', async () => {
      const pub = await testServer(engine, { ...AUTH_CONFIG, server: { publicUrl: 'https://api.example.com/' } });
      try {
        const res = await pub.app.inject({ method: 'GET', url: '/nope', headers: { host: 'evil.example' } });
        assert.equal(res.json().type, 'https://api.example.com/problems/not-found');
        const meta = (await pub.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: { host: 'evil.example' } })).json();
        assert.equal(meta.issuer, 'https://api.example.com');
      } finally {
        await pub.close();
      }
    });
  });
}
