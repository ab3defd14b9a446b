import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import { AUTH_CONFIG, bearer } from './auth-support.js';
import { listen, openStream } from './stream-support.js';

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
/** Same provider with an hour's cooldown: no test outlasts it, so "within the cooldown" holds however slow the machine. */
const SLOW_ISSUER = 'https://slow-idp.example.test/';
/** A provider whose JWKS cannot be fetched (nothing listens at its address). */
const DOWN_ISSUER = 'https://down-idp.example.test/';

/** A local URL where nothing listens. */
async function closedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/jwks`;
}

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
        { issuer: SLOW_ISSUER, jwksUri: `${idp.url}/jwks`, audience: AUDIENCE, jwksCooldown: '1h' },
        { issuer: DOWN_ISSUER, jwksUri: await closedUrl(), audience: AUDIENCE },
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
      // Both issuers fetch the set before the provider rotates k2 in.
      assert.equal((await post(await sign(key1, 'k1', { iss: QUICK_ISSUER }))).statusCode, 201);
      assert.equal((await post(await sign(key1, 'k1', { iss: SLOW_ISSUER }))).statusCode, 201);
      const key2 = await idp.addKey('k2');
      // Within the cooldown (the slow issuer's hour) the set is not refetched, so the new kid is still unknown...
      assert.equal((await post(await sign(key2, 'k2', { iss: SLOW_ISSUER }))).statusCode, 401);
      // A wait that only has to be long enough (the quick issuer's second), never short enough.
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

    test('a token whose alg does not match the key its kid names is 401 invalid_token, never a 5xx', async () => {
      // Keys published without `alg` too, so only their type can rule a token's alg out.
      const ec = await generateKeyPair('ES256');
      const rsa = await generateKeyPair('RS256', { modulusLength: 2048 });
      const ed = await generateKeyPair('EdDSA');
      idp.keys.push({ ...(await exportJWK(ec.publicKey)), kid: 'ec-any' }, { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-any' }, { ...(await exportJWK(ed.publicKey)), kid: 'ed-any' });
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: QUICK_ISSUER, aud: AUDIENCE, sub: 'user-1', iat: now, exp: now + 300, scope: 'characters:write' };
      const signed = (alg: string, kid: string, key: CryptoKey) => new SignJWT(claims).setProtectedHeader({ alg, kid, typ: 'at+jwt' }).sign(key);
      const fake = (alg: string, kid: string) => [{ alg, kid, typ: 'at+jwt' }, claims].map((p) => Buffer.from(JSON.stringify(p)).toString('base64url')).join('.') + '.' + Buffer.alloc(64, 7).toString('base64url');
      await new Promise((resolve) => setTimeout(resolve, 1100)); // past the quick issuer's refetch cooldown
      const tokens = [
        await signed('ES384', 'k1', (await generateKeyPair('ES384')).privateKey),
        await signed('ES256', 'rsa-any', ec.privateKey),
        await signed('PS256', 'ec-any', (await generateKeyPair('PS256')).privateKey),
        await signed('EdDSA', 'rsa-any', ed.privateKey),
        await signed('ES256', 'ed-any', ec.privateKey),
        await signed('RS256', 'ed-any', rsa.privateKey),
        fake('ES512', 'ec-any'),
        fake('EdDSA', 'k1'),
        fake('PS512', 'k1'),
        fake('RS256', 'ec-any'),
      ];
      for (const token of tokens) {
        const res = await post(token);
        assert.equal(res.statusCode, 401, `${Buffer.from(token.split('.')[0], 'base64url')}: ${res.body}`);
        assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
      }
      assert.equal((await post(await signed('RS256', 'rsa-any', rsa.privateKey))).statusCode, 201, 'the same keys verify tokens of their own alg');
      assert.equal((await post(await signed('ES256', 'ec-any', ec.privateKey))).statusCode, 201);
    });

    test('only an issuer whose keys cannot be fetched is 503 (+ Retry-After); its tokens are not blamed', async () => {
      const res = await post(await sign(key1, 'k1', { iss: DOWN_ISSUER }));
      assert.equal(res.statusCode, 503, res.body);
      assert.ok(res.headers['retry-after']);
      assert.match(res.json().detail, /cannot be fetched/);
    });

    test('refetching on unknown kids is rate-limited: a flood of forged kids does not hit the provider each time', async () => {
      const stranger = await generateKeyPair('ES256');
      const before = idp.fetches;
      for (let i = 0; i < 5; i++) assert.equal((await post(await sign(stranger.privateKey, `forged-${i}`))).statusCode, 401);
      assert.ok(idp.fetches - before <= 1, `${idp.fetches - before} fetches for 5 forged kids`);
    });

    test('an event stream opened with an external token ends at its exp (nothing here can revoke it), and the token opens no new one', async () => {
      const port = await listen(server);
      const token = await sign(key1, 'k1', { scope: 'events:read', exp: Math.floor(Date.now() / 1000) + 2 });
      const stream = await openStream(port, '/events/stream', { authorization: `Bearer ${token}` });
      assert.equal(stream.status, 200, stream.text);
      await stream.closed;
      const again = await openStream(port, '/events/stream', { authorization: `Bearer ${token}` });
      again.close();
      assert.equal(again.status, 401);
    });
  });
}
