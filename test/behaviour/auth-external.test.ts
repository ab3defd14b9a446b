import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/server.js';
import { AUTH_CONFIG, bearer } from './auth-support.js';

/** A stand-in identity provider: a JWKS endpoint on 127.0.0.1 whose keys a test can change. */
class LocalIdp {
  keys: JWK[] = [];
  fetches = 0;
  private server!: Server;
  url = '';
  async start() {
    this.server = createServer((_req, res) => {
      this.fetches++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }
  async addKey(kid: string): Promise<CryptoKey> {
    const pair = await generateKeyPair('ES256');
    this.keys.push({ ...(await exportJWK(pair.publicKey)), kid, alg: 'ES256', use: 'sig' });
    return pair.privateKey;
  }
  stop() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'https://api.example.test';
/** Same provider, configured with a 1 s refetch cooldown, so a test can watch the cooldown end. */
const QUICK_ISSUER = 'https://quick-idp.example.test/';

for (const engine of engines) {
  describe(`auth: external issuers via JWKS (${engine.name})`, () => {
    let server: RestwellServer;
    const idp = new LocalIdp();
    let key1: CryptoKey;
    before(async () => {
      await idp.start();
      key1 = await idp.addKey('k1');
      const issuers = [
        { issuer: ISSUER, jwksUri: `${idp.url}/jwks`, audience: AUDIENCE },
        { issuer: QUICK_ISSUER, jwksUri: `${idp.url}/jwks`, audience: AUDIENCE, jwksCooldown: '1s' },
      ];
      server = await testServer(engine, { ...AUTH_CONFIG, auth: { issuers } });
    });
    after(async () => {
      await server.close();
      await idp.stop();
    });

    const sign = (key: CryptoKey, kid: string, claims: Record<string, unknown> = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const payload = { iss: ISSUER, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 300, scope: 'characters:write', client_id: 'ext', ...claims };
      return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' }).sign(key);
    };
    const post = (token: string) => server.app.inject({ method: 'POST', url: '/characters', headers: bearer(token), payload: { name: `x${Math.random()}` } });

    test('a token from the configured issuer is accepted with its scopes', async () => {
      assert.equal((await post(await sign(key1, 'k1'))).statusCode, 201);
      assert.equal((await post(await sign(key1, 'k1', { scope: 'characters:read' }))).statusCode, 403);
    });

    test('a key the provider rotated in is found by refetching the JWKS on an unknown kid, once the cooldown allows', async () => {
      assert.equal((await post(await sign(key1, 'k1', { iss: QUICK_ISSUER }))).statusCode, 201);
      const key2 = await idp.addKey('k2');
      // Within the cooldown the set is not refetched, so the new kid is still unknown...
      assert.equal((await post(await sign(key2, 'k2', { iss: QUICK_ISSUER }))).statusCode, 401);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const before = idp.fetches;
      // ...after it, the unknown kid triggers one refetch and the token verifies.
      assert.equal((await post(await sign(key2, 'k2', { iss: QUICK_ISSUER }))).statusCode, 201);
      assert.equal(idp.fetches, before + 1);
    });

    test('wrong audience, unknown kid and a foreign signature are refused (401 invalid_token)', async () => {
      const res = await post(await sign(key1, 'k1', { aud: 'https://elsewhere.test' }));
      assert.equal(res.statusCode, 401);
      assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
      const stranger = await generateKeyPair('ES256');
      const unknownKid = await post(await sign(stranger.privateKey, 'k9'));
      assert.equal(unknownKid.statusCode, 401);
      assert.match(String(unknownKid.headers['www-authenticate']), /kid/);
      assert.equal((await post(await sign(stranger.privateKey, 'k1'))).statusCode, 401);
    });

    test('refetching on unknown kids is rate-limited: a flood of forged kids does not hit the provider each time', async () => {
      const stranger = await generateKeyPair('ES256');
      const before = idp.fetches;
      for (let i = 0; i < 5; i++) assert.equal((await post(await sign(stranger.privateKey, `forged-${i}`))).statusCode, 401);
      assert.ok(idp.fetches - before <= 1, `${idp.fetches - before} fetches for 5 forged kids`);
    });
  });
}
