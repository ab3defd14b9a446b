import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as oauth from 'oauth4webapi';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { engines, testServer } from '../../src/test-support/test-server.js';
import type { RestwellServer } from '../../src/app/server.js';
import { AUTH_CONFIG } from './auth-support.js';

const insecure = { [oauth.allowInsecureRequests]: true };

for (const engine of engines) {
  describe(`auth: OAuth 2.0 client credentials with oauth4webapi (${engine.name})`, () => {
    let server: RestwellServer;
    let base: string;
    let as: oauth.AuthorizationServer;
    let client: oauth.Client;
    let secret: string;
    let admin: { client: oauth.Client; secret: string };

    before(async () => {
      server = await testServer(engine, AUTH_CONFIG);
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(server.app.server.address() as { port: number }).port}`;
      const created = await server.context.auth.clients.create({ name: 'writer', scopes: ['characters:write', 'characters:read'] });
      client = { client_id: created.info.clientId };
      secret = created.clientSecret;
      const a = await server.context.auth.clients.create({ name: 'operator', scopes: ['*'] });
      admin = { client: { client_id: a.info.clientId }, secret: a.clientSecret };
      as = await oauth.processDiscoveryResponse(new URL(base), await oauth.discoveryRequest(new URL(base), { ...insecure, algorithm: 'oauth2' }));
    });
    after(() => server.close());

    const token = async (auth: oauth.ClientAuth, scope?: string) =>
      oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, auth, scope ? { scope } : {}, insecure));

    test('discovery metadata (RFC 8414) names the endpoints and methods', () => {
      assert.equal(as.issuer, base);
      assert.equal(as.token_endpoint, `${base}/oauth/token`);
      assert.equal(as.jwks_uri, `${base}/.well-known/jwks.json`);
      assert.deepEqual(as.grant_types_supported, ['client_credentials']);
      assert.deepEqual(as.token_endpoint_auth_methods_supported, ['client_secret_basic', 'client_secret_post']);
      assert.ok(as.scopes_supported?.includes('characters:write'));
    });

    test('client_secret_basic: an RFC 9068 access token that works against the API', async () => {
      const res = await token(oauth.ClientSecretBasic(secret), 'characters:write');
      assert.equal(res.token_type, 'bearer');
      assert.equal(res.scope, 'characters:write');
      assert.equal(res.expires_in, 900);
      const header = decodeProtectedHeader(res.access_token);
      assert.equal(header.typ, 'at+jwt');
      assert.equal(header.alg, 'EdDSA');
      const jwks = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string; d?: string }> };
      assert.ok(jwks.keys.some((k) => k.kid === header.kid));
      assert.ok(jwks.keys.every((k) => k.d === undefined), 'no private key material in the JWKS');
      const claims = decodeJwt(res.access_token);
      assert.deepEqual(Object.keys(claims).sort(), ['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub'].sort());
      assert.equal(claims.client_id, client.client_id);
      const created = await fetch(`${base}/characters`, { method: 'POST', headers: { authorization: `Bearer ${res.access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Marge' }) });
      assert.equal(created.status, 201);
    });

    test('client_secret_post works too; requested scopes are narrowed to the allowed ones', async () => {
      const res = await token(oauth.ClientSecretPost(secret), 'characters:read messages:read *');
      assert.equal(res.scope, 'characters:read');
      const all = await token(oauth.ClientSecretPost(secret));
      assert.deepEqual(all.scope?.split(' ').sort(), ['characters:read', 'characters:write']);
    });

    test('the token response is never cached', async () => {
      const res = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret), {}, insecure);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('pragma'), 'no-cache');
    });

    test('introspection (RFC 7662): own token active; after revocation (RFC 7009) inactive and refused by the API', async () => {
      const { access_token } = await token(oauth.ClientSecretBasic(secret), 'characters:write');
      const active = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, oauth.ClientSecretBasic(secret), access_token, insecure));
      assert.equal(active.active, true);
      assert.equal(active.client_id, client.client_id);
      assert.equal(active.scope, 'characters:write');
      const use = () => fetch(`${base}/characters`, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `n${Math.random()}` }) });
      assert.equal((await use()).status, 201);
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.ClientSecretPost(secret), access_token, insecure));
      const inactive = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, oauth.ClientSecretBasic(secret), access_token, insecure));
      assert.equal(inactive.active, false);
      const refused = await use();
      assert.equal(refused.status, 401);
      assert.match(String(refused.headers.get('www-authenticate')), /error="invalid_token", error_description="the access token has been revoked"/);
    });

    test("another client's token is inactive to a client, visible to an admin client; API keys only to the admin", async () => {
      const { access_token } = await token(oauth.ClientSecretBasic(secret));
      const other = await server.context.auth.clients.create({ name: 'other', scopes: ['characters:read'] });
      const o = { client_id: other.info.clientId };
      const seen = await oauth.processIntrospectionResponse(as, o, await oauth.introspectionRequest(as, o, oauth.ClientSecretBasic(other.clientSecret), access_token, insecure));
      assert.equal(seen.active, false);
      const byAdmin = await oauth.processIntrospectionResponse(as, admin.client, await oauth.introspectionRequest(as, admin.client, oauth.ClientSecretBasic(admin.secret), access_token, insecure));
      assert.equal(byAdmin.active, true);
      const { key } = await server.context.auth.apiKeys.create({ name: 'k', scopes: ['characters:write'] });
      const keyInfo = await oauth.processIntrospectionResponse(as, admin.client, await oauth.introspectionRequest(as, admin.client, oauth.ClientSecretBasic(admin.secret), key, insecure));
      assert.equal(keyInfo.active, true);
      assert.equal(keyInfo.scope, 'characters:write');
    });

    test('a wrong secret by Basic: 401 invalid_client with WWW-Authenticate: Basic', async () => {
      const res = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic('wrong'), {}, insecure);
      assert.equal(res.status, 401);
      assert.match(String(res.headers.get('www-authenticate')), /^Basic realm="restwell"/);
      assert.deepEqual(await res.json(), { error: 'invalid_client', error_description: 'client authentication failed' });
      // oauth4webapi surfaces the challenge itself: scheme Basic, realm restwell.
      await assert.rejects(token(oauth.ClientSecretBasic('wrong')), (err: oauth.WWWAuthenticateChallengeError) => err.cause[0].scheme === 'basic' && err.cause[0].parameters.realm === 'restwell');
    });

    test('an unknown client by form post, and no client authentication at all: invalid_client', async () => {
      const post = (body: string, headers: Record<string, string> = {}) =>
        fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
      const unknown = await post('grant_type=client_credentials&client_id=rwc_nobody&client_secret=x');
      assert.equal(unknown.status, 401);
      assert.equal(((await unknown.json()) as { error: string }).error, 'invalid_client');
      const none = await post('grant_type=client_credentials');
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('cache-control'), 'no-store');
      const both = await post(`grant_type=client_credentials&client_secret=${secret}`, { authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` });
      assert.equal(both.status, 400);
      assert.equal(((await both.json()) as { error: string }).error, 'invalid_request');
    });

    test('grant and scope errors in RFC 6749 §5.2 JSON', async () => {
      const basic = { authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` };
      const post = async (body: string, type = 'application/x-www-form-urlencoded') => {
        const res = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': type, ...basic }, body });
        return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as { error: string } };
      };
      assert.deepEqual([(await post('grant_type=password')).status, (await post('grant_type=password')).body.error], [400, 'unsupported_grant_type']);
      assert.equal((await post('')).body.error, 'invalid_request');
      assert.equal((await post('grant_type=client_credentials&grant_type=client_credentials')).body.error, 'invalid_request');
      assert.equal((await post('grant_type=client_credentials&scope=messages:read')).body.error, 'invalid_scope');
      // Percent-encoded bytes that are not UTF-8 (an encoded surrogate among them) are refused, not read as U+FFFD.
      for (const bad of ['grant_type=client_credentials&scope=%ED%A0%80', 'grant_type=client_credentials&scope=%FF', 'grant_type=client_credentials%E2%82']) {
        const refused = await post(bad);
        assert.deepEqual([refused.status, refused.body.error], [400, 'invalid_request'], bad);
      }
      assert.equal((await post('grant_type=client_credentials&scope=characters%3Awrite+characters:read')).status, 200, 'percent-encoding and + still decode');
      const json = await post('{"grant_type":"client_credentials"}', 'application/json');
      assert.equal(json.body.error, 'invalid_request');
      assert.match(String(json.type), /^application\/json/);
    });

    test('unrecognized parameters are ignored, repeated or not (RFC 6749 §3.2); a repeated known one is invalid_request', async () => {
      const basic = { authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString('base64')}` };
      const post = async (path: string, body: string) => {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic }, body });
        return { status: res.status, body: (await res.json()) as { error?: string; access_token?: string; active?: boolean } };
      };
      const issued = await post('/oauth/token', 'grant_type=client_credentials&x_trace=1&x_trace=2&resource=&resource=');
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const token = issued.body.access_token!;
      assert.equal((await post('/oauth/introspect', `token=${token}&x=1&x=2`)).body.active, true);
      assert.equal((await post('/oauth/revoke', `token=${token}&x=1&x=2&token_type_hint=access_token`)).status, 200);
      assert.equal((await post('/oauth/introspect', `token=${token}&x=1&x=2`)).body.active, false);
      for (const [path, body] of [
        ['/oauth/token', 'grant_type=client_credentials&scope=characters:write&scope=characters:write'],
        ['/oauth/token', 'grant_type=client_credentials&client_id=&client_id='],
        ['/oauth/introspect', `token=${token}&token=${token}`],
        ['/oauth/revoke', 'token=a&token_type_hint=access_token&token_type_hint=access_token'],
      ]) {
        const res = await post(path, body);
        assert.deepEqual([res.status, res.body.error], [400, 'invalid_request'], `${path} ${body}`);
      }
    });

    test('deleting a client ends its tokens', async () => {
      const c = await server.context.auth.clients.create({ name: 'short-lived', scopes: ['characters:write'] });
      const cl = { client_id: c.info.clientId };
      const res = await oauth.processClientCredentialsResponse(as, cl, await oauth.clientCredentialsGrantRequest(as, cl, oauth.ClientSecretBasic(c.clientSecret), {}, insecure));
      await server.context.auth.clients.delete(c.info.clientId);
      server.context.auth.cache.clear();
      const use = await fetch(`${base}/characters`, { method: 'POST', headers: { authorization: `Bearer ${res.access_token}`, 'content-type': 'application/json' }, body: '{"name":"x"}' });
      assert.equal(use.status, 401);
    });

    test('signing key rotation: old tokens keep working, new tokens use the new kid, both are published', async () => {
      const before = await token(oauth.ClientSecretBasic(secret), 'characters:write');
      const oldKid = decodeProtectedHeader(before.access_token).kid;
      const rotated = await server.context.auth.keyring.rotate();
      const afterRotation = await token(oauth.ClientSecretBasic(secret), 'characters:write');
      assert.equal(decodeProtectedHeader(afterRotation.access_token).kid, rotated.kid);
      assert.notEqual(rotated.kid, oldKid);
      const jwks = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };
      assert.deepEqual(new Set(jwks.keys.map((k) => k.kid)), new Set([oldKid, rotated.kid]));
      for (const t of [before.access_token, afterRotation.access_token]) {
        const res = await fetch(`${base}/characters`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `r${Math.random()}` }) });
        assert.equal(res.status, 201);
      }
    });
  });
}
