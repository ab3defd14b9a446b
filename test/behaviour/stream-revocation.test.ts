import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { ROOT } from '../support-process.js';
import { apiKey, AUTH_CONFIG, bearer } from './auth-support.js';
import { listen, openStream, type SseStream } from './stream-support.js';

/*
 * A revoked credential loses the streams it holds open: deleting an API key, revoking an access
 * token (RFC 7009) or deleting the OAuth client ends them, on the node that revoked at once and on
 * every other node (or from the CLI, another process) at its next credential check.
 */

/** One issuer for every node, so a token minted on one is good on the others. */
const ISSUER = 'http://restwell.test';
const config = (credentialCheck: string) => ({ ...AUTH_CONFIG, auth: { issuer: ISSUER }, events: { stream: { credentialCheck } } });
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const run = promisify(execFile);

/** Resolves when the server has ended `s` (waitFor fails a hung test rather than hang the suite). */
async function ended(s: SseStream, what: string): Promise<void> {
  await waitFor(() => s.isClosed, `the server to end the stream held by ${what}`);
}

/** An OAuth client allowed `events:read` (and `*` when `admin`), with what its requests need. */
async function oauthClient(server: RestwellServer, admin = false) {
  const { info, clientSecret } = await server.context.auth.clients.create({ name: 'streamer', scopes: admin ? ['*'] : ['events:read'] });
  return { id: info.clientId, basic: { authorization: `Basic ${Buffer.from(`${info.clientId}:${clientSecret}`).toString('base64')}` } };
}

/** An access token from the token endpoint of the node at `base`. */
async function accessToken(base: string, client: { basic: Record<string, string> }): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { ...form, ...client.basic }, body: 'grant_type=client_credentials&scope=events:read' });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).access_token;
}

/** `POST /oauth/revoke` on the node at `base`. */
async function revoke(base: string, client: { basic: Record<string, string> }, token: string): Promise<void> {
  const res = await fetch(`${base}/oauth/revoke`, { method: 'POST', headers: { ...form, ...client.basic }, body: new URLSearchParams({ token }).toString() });
  assert.equal(res.status, 200, await res.text());
}

/** Opens an event stream on `port` with `token`, kept in `open` so the test can close it; it must be accepted. */
async function streamWith(port: number, token: string, open: SseStream[]): Promise<SseStream> {
  const s = await openStream(port, '/events/stream', { authorization: `Bearer ${token}` });
  open.push(s);
  assert.equal(s.status, 200, s.text);
  return s;
}

for (const engine of engines) {
  describe(`revoking a credential ends its event streams, on the node that revoked (${engine.name})`, () => {
    let server: RestwellServer;
    let base: string;
    let port: number;
    let admin: Record<string, string>;
    const open: SseStream[] = [];
    const stream = (token: string) => streamWith(port, token, open);
    const del = async (path: string) => assert.equal((await fetch(base + path, { method: 'DELETE', headers: { authorization: admin.authorization } })).status, 204);
    /** A bystander's stream gets the next event: the revocation ended only what it had to. */
    const stillLive = async (s: SseStream, name: string) => {
      const n = s.events.length;
      assert.equal((await server.app.inject({ method: 'POST', url: '/characters', headers: admin, payload: { name } })).statusCode, 201);
      await s.waitFor(n + 1);
      assert.equal(s.isClosed, false);
    };

    before(async () => {
      // The periodic check is an hour away: only the revocation itself can end these streams in time.
      server = await testServer(engine, config('1h'));
      port = await listen(server);
      base = `http://127.0.0.1:${port}`;
      admin = bearer(await apiKey(server, ['*']));
    });
    after(async () => {
      for (const s of open) s.close();
      await server.close();
    });

    test('DELETE /api-keys/{id} ends the streams opened with that key, and none other', async () => {
      const { key, info } = await server.context.auth.apiKeys.create({ name: 'doomed', scopes: ['events:read'] });
      const doomed = [await stream(key), await stream(key)];
      const bystander = await stream(await apiKey(server, ['events:read']));
      await del(`/api-keys/${info.id}`);
      await Promise.all(doomed.map((s) => ended(s, 'the deleted key')));
      const again = await openStream(port, '/events/stream', { authorization: `Bearer ${key}` });
      again.close();
      assert.equal(again.status, 401, 'and the key opens no new one');
      await stillLive(bystander, 'after the key');
    });

    test('POST /oauth/revoke ends the streams of that access token; the same client\'s other token keeps its own', async () => {
      const client = await oauthClient(server);
      const token = await accessToken(base, client);
      const other = await accessToken(base, client);
      const doomed = await stream(token);
      const bystander = await stream(other);
      await revoke(base, client, token);
      await ended(doomed, 'the revoked token');
      await stillLive(bystander, 'after the token');
    });

    test('an admin client revoking an API key through /oauth/revoke ends its streams', async () => {
      const adminClient = await oauthClient(server, true);
      const key = await apiKey(server, ['events:read']);
      const doomed = await stream(key);
      await revoke(base, adminClient, key);
      await ended(doomed, 'the key revoked through /oauth/revoke');
    });

    test('DELETE /oauth/clients/{id} ends the streams of every token issued to it', async () => {
      const client = await oauthClient(server);
      const doomed = [await stream(await accessToken(base, client)), await stream(await accessToken(base, client))];
      const bystander = await stream(await accessToken(base, await oauthClient(server)));
      await del(`/oauth/clients/${client.id}`);
      await Promise.all(doomed.map((s) => ended(s, 'a token of the deleted client')));
      await stillLive(bystander, 'after the client');
    });
  });

  describe(`revoking a credential ends its event streams on every node sharing the database (${engine.name})`, () => {
    let a: RestwellServer;
    let b: RestwellServer;
    let aPort: number;
    let bBase: string;
    let url: string;
    let admin: Record<string, string>;
    const open: SseStream[] = [];
    const streamOnA = (token: string) => streamWith(aPort, token, open);
    const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args, '--db', url], { cwd: ROOT });

    before(async () => {
      url = engine.freshUrl();
      const shared = { ...engine, freshUrl: () => url };
      // Node A holds the streams and checks their credentials often; node B (or the CLI) revokes.
      a = await testServer(shared, config('100ms'));
      b = await testServer(shared, config('1h'));
      aPort = await listen(a);
      bBase = `http://127.0.0.1:${await listen(b)}`;
      admin = bearer(await apiKey(b, ['*']));
    });
    after(async () => {
      for (const s of open) s.close();
      await a.close();
      await b.close();
    });

    test('an API key deleted through another node', async () => {
      const { key, info } = await b.context.auth.apiKeys.create({ name: 'doomed', scopes: ['events:read'] });
      const doomed = await streamOnA(key);
      const bystander = await streamOnA(await apiKey(b, ['events:read']));
      assert.equal((await fetch(`${bBase}/api-keys/${info.id}`, { method: 'DELETE', headers: { authorization: admin.authorization } })).status, 204);
      await ended(doomed, 'the key deleted on node B');
      assert.equal(bystander.isClosed, false);
    });

    test('an access token revoked through another node, and a client deleted there', async () => {
      const client = await oauthClient(b);
      const revoked = await streamOnA(await accessToken(bBase, client));
      const kept = await streamOnA(await accessToken(bBase, client));
      const token = await accessToken(bBase, client);
      const third = await streamOnA(token);
      await revoke(bBase, client, token);
      await ended(third, 'the token revoked on node B');
      assert.equal(kept.isClosed, false, 'only the revoked token lost its stream');
      assert.equal((await fetch(`${bBase}/oauth/clients/${client.id}`, { method: 'DELETE', headers: { authorization: admin.authorization } })).status, 204);
      await Promise.all([ended(revoked, 'a token of the client deleted on node B'), ended(kept, 'a token of the client deleted on node B')]);
    });

    test('an API key revoked and a client deleted by the CLI, in another process', async () => {
      const { key, info } = await b.context.auth.apiKeys.create({ name: 'doomed', scopes: ['events:read'] });
      const client = await oauthClient(b);
      const byKey = await streamOnA(key);
      const byToken = await streamOnA(await accessToken(bBase, client));
      await cli('keys', 'revoke', info.id);
      await ended(byKey, 'the key revoked by the CLI');
      await cli('clients', 'delete', client.id);
      await ended(byToken, 'a token of the client deleted by the CLI');
    });
  });
}
