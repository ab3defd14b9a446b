import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import { apiKey, AUTH_CONFIG, bearer, goodClaims, signWithServerKey } from './auth-support.js';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

for (const engine of engines) {
  describe(`auth: rejected credentials (${engine.name})`, () => {
    let server: RestwellServer;
    let clientId: string;
    before(async () => {
      server = await testServer(engine, AUTH_CONFIG);
      clientId = (await server.context.auth.clients.create({ name: 'c', scopes: ['characters:write'] })).info.clientId;
    });
    after(() => server.close());

    const write = (headers: Record<string, string>) =>
      server.app.inject({ method: 'POST', url: '/characters', headers: { 'content-type': 'application/json', ...headers }, payload: { name: `n${Math.random()}` } });

    async function expectInvalidToken(headers: Record<string, string>, describes: RegExp) {
      const res = await write(headers);
      assert.equal(res.statusCode, 401, res.body);
      const challenge = String(res.headers['www-authenticate']);
      assert.match(challenge, /^Bearer realm="restwell", error="invalid_token", error_description="(?:[^"\\]|\\.)+"$/);
      assert.match(challenge, describes);
      assert.equal(res.json().type, 'http://localhost:8080/problems/unauthorized');
    }

    test('a well-formed token with the scope is accepted (the control case)', async () => {
      const token = await signWithServerKey(server, goodClaims(clientId, 'characters:write'));
      assert.equal((await write({ authorization: `Bearer ${token}` })).statusCode, 201);
      assert.equal((await write({ authorization: `Bearer ${await apiKey(server, ['characters:write'])}` })).statusCode, 201);
    });

    test('no token: 401 with a bare Bearer challenge (no error code, RFC 6750 §3.1)', async () => {
      const res = await write({});
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="restwell"');
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    });

    test('another scheme (Basic) counts as no bearer token', async () => {
      const res = await write({ authorization: 'Basic dXNlcjpwYXNz' });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="restwell"');
    });

    test('a malformed Bearer header: 400 invalid_request (RFC 6750 §3.1)', async () => {
      for (const header of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer ab"c', 'Bearer\tabc']) {
        const res = await write({ authorization: header });
        assert.equal(res.statusCode, 400, header);
        assert.match(String(res.headers['www-authenticate']), /^Bearer realm="restwell", error="invalid_request", error_description=/);
        assert.equal(res.json().type, 'http://localhost:8080/problems/malformed-authorization');
      }
    });

    test('an unknown API key', () => expectInvalidToken(bearer('rw_' + 'x'.repeat(43)), /API key is unknown/));

    test('a revoked API key', async () => {
      const { key, info } = await server.context.auth.apiKeys.create({ name: 'gone', scopes: ['characters:write'] });
      assert.equal((await write(bearer(key))).statusCode, 201);
      const admin = await apiKey(server, ['*']);
      assert.equal((await server.app.inject({ method: 'DELETE', url: `/api-keys/${info.id}`, headers: { authorization: `Bearer ${admin}` } })).statusCode, 204);
      await expectInvalidToken(bearer(key), /API key is unknown, revoked or expired/);
    });

    test('a token that is neither an API key nor a JWT', () => expectInvalidToken(bearer('hello'), /neither an API key/));

    test('an expired JWT', async () => {
      const now = Math.floor(Date.now() / 1000);
      await expectInvalidToken(bearer(await signWithServerKey(server, goodClaims(clientId, 'characters:write', { iat: now - 600, exp: now - 60 }))), /expired/);
    });

    test('alg: none', async () => {
      const token = `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(goodClaims(clientId, 'characters:write'))}.`;
      await expectInvalidToken(bearer(token), /not a well-formed|algorithm/);
    });

    test('HS256 signed with the server public key as the HMAC secret', async () => {
      const key = await server.context.auth.keyring.current();
      const pem = await exportSPKI(key.publicKey);
      const input = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: key.kid })}.${b64(goodClaims(clientId, 'characters:write'))}`;
      for (const secret of [pem, JSON.stringify(key.publicJwk), String(key.publicJwk.x)]) {
        const token = `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
        await expectInvalidToken(bearer(token), /algorithm that is not accepted/);
      }
    });

    test('a wrong typ (JWT instead of at+jwt)', async () => {
      await expectInvalidToken(bearer(await signWithServerKey(server, goodClaims(clientId, 'characters:write'), { typ: 'JWT' })), /typ/);
    });

    test('a wrong iss (an issuer this server does not trust)', async () => {
      await expectInvalidToken(bearer(await signWithServerKey(server, goodClaims(clientId, 'characters:write', { iss: 'https://evil.example' }))), /issuer/);
    });

    test('a wrong aud', async () => {
      await expectInvalidToken(bearer(await signWithServerKey(server, goodClaims(clientId, 'characters:write', { aud: 'https://other.example' }))), /aud/);
    });

    test('an unknown kid', async () => {
      const other = await generateKeyPair('EdDSA');
      const token = await new SignJWT(goodClaims(clientId, 'characters:write')).setProtectedHeader({ alg: 'EdDSA', kid: 'not-a-kid', typ: 'at+jwt' }).sign(other.privateKey);
      await expectInvalidToken(bearer(token), /kid/);
    });

    test('a known kid but another key: the signature does not verify', async () => {
      const key = await server.context.auth.keyring.current();
      const other = await generateKeyPair('EdDSA');
      const token = await new SignJWT(goodClaims(clientId, 'characters:write')).setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'at+jwt' }).sign(other.privateKey);
      await expectInvalidToken(bearer(token), /signature/);
    });

    test('the server kid with another accepted alg (ES256 on an EdDSA key, and the reverse): 401, not a 500', async () => {
      const key = await server.context.auth.keyring.current();
      assert.equal(key.alg, 'EdDSA');
      const es = await generateKeyPair('ES256');
      const token = await new SignJWT(goodClaims(clientId, 'characters:write')).setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' }).sign(es.privateKey);
      await expectInvalidToken(bearer(token), /alg/);
      const unsigned = `${b64({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })}.${b64(goodClaims(clientId, 'characters:write'))}.${Buffer.alloc(64, 1).toString('base64url')}`;
      await expectInvalidToken(bearer(unsigned), /alg/);
      // Introspection and revocation verify it the same way: an inactive token, not a 500.
      const { clientSecret, info } = await server.context.auth.clients.create({ name: 'rs', scopes: ['*'] });
      const basic = { authorization: `Basic ${Buffer.from(`${info.clientId}:${clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' };
      const introspected = await server.app.inject({ method: 'POST', url: '/oauth/introspect', headers: basic, payload: `token=${token}` });
      assert.equal(introspected.statusCode, 200, introspected.body);
      assert.deepEqual(introspected.json(), { active: false });
      assert.equal((await server.app.inject({ method: 'POST', url: '/oauth/revoke', headers: basic, payload: `token=${token}` })).statusCode, 200);
      const other = await testServer(engine, { ...AUTH_CONFIG, auth: { signingAlgorithm: 'ES256' } });
      try {
        const esKey = await other.context.auth.keyring.current();
        const ed = await generateKeyPair('EdDSA');
        const edToken = await new SignJWT(goodClaims(clientId, 'characters:write')).setProtectedHeader({ alg: 'EdDSA', kid: esKey.kid, typ: 'at+jwt' }).sign(ed.privateKey);
        const res = await other.app.inject({ method: 'GET', url: '/notes', headers: bearer(edToken) });
        assert.equal(res.statusCode, 401, res.body);
        assert.match(String(res.headers['www-authenticate']), /error="invalid_token", error_description=".*alg/);
      } finally {
        await other.close();
      }
    });

    test('a tampered payload (scope raised to *)', async () => {
      const [h, , s] = (await signWithServerKey(server, goodClaims(clientId, 'characters:read'))).split('.');
      await expectInvalidToken(bearer(`${h}.${b64(goodClaims(clientId, '*'))}.${s}`), /signature/);
    });

    test('a token missing a required RFC 9068 claim (jti)', async () => {
      await expectInvalidToken(bearer(await signWithServerKey(server, goodClaims(clientId, 'characters:write', { jti: undefined }))), /jti/);
    });

    test('a valid token without the scope: 403 insufficient_scope naming it', async () => {
      for (const token of [await signWithServerKey(server, goodClaims(clientId, 'characters:read')), await apiKey(server, ['other'])]) {
        const res = await write(bearer(token));
        assert.equal(res.statusCode, 403);
        assert.equal(res.headers['www-authenticate'], 'Bearer realm="restwell", error="insufficient_scope", error_description="POST /characters needs the scope characters:write", scope="characters:write"');
        assert.equal(res.json().scope, 'characters:write');
      }
    });

    test('public reads need no token, but a bad token is still refused there', async () => {
      assert.equal((await server.app.inject({ url: '/characters' })).statusCode, 200);
      assert.equal((await server.app.inject({ url: '/characters', headers: bearer('rw_nope') })).statusCode, 401);
    });

    test('the admin scope * may do everything', async () => {
      assert.equal((await write(bearer(await apiKey(server, ['*'])))).statusCode, 201);
    });
  });
}
