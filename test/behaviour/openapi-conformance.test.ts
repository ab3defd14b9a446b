import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { request } from 'undici';
import { DEMO_CONFIG } from '../../src/config/defaults.js';
import type { RestwellServer } from '../../src/app/server.js';
import { databaseFile } from '../../src/store/database-location.js';
import { engines } from '../../src/test-support/test-server.js';
import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';
import { ConformanceChecker, type Exchange } from '../../src/test-support/openapi-conformance.js';
import { eventually, listening } from './webhooks-support.js';

/**
 * The demo with its real access rules, plus what the demo lacks to show every answer: a resource
 * that requires If-Match (428), a tiny quota on messages and a tiny one on a webhook source (429).
 */
const CONFIG = {
  ...DEMO_CONFIG,
  resources: {
    ...DEMO_CONFIG.resources,
    notes: { fields: { text: { type: 'string', required: true } }, requireIfMatch: true, access: { read: 'public', write: 'public' } },
    tags: { id: 'string', fields: { label: { type: 'string' }, note: { type: 'reference', to: 'notes' } }, access: { read: 'public', write: 'public' } },
    pins: { fields: { tag: { type: 'reference', to: 'tags', required: true } }, access: { read: 'public', write: 'public' } },
  },
  auth: { rateLimit: { limit: 1000, window: '1m', resources: { messages: { limit: 12, window: '1m' } } } },
  webhooks: { sources: { ...DEMO_CONFIG.webhooks.sources, tiny: { provider: 'generic', verify: 'none', rateLimit: { limit: 1, window: '1m' } } } },
};

const json = 'application/json';
const form = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

for (const engine of engines) {
  describe(`the OpenAPI document tells the truth about a whole session (${engine.name})`, () => {
    let server: RestwellServer;
    let base: string;
    const exchanges: Exchange[] = [];

    /** One request over the socket, recorded for validation. */
    async function call(method: string, url: string, options: { headers?: Record<string, string>; body?: string | Buffer; type?: string } = {}): Promise<Exchange & { json(): any }> {
      const headers = { ...(options.type ? { 'content-type': options.type } : {}), ...options.headers };
      const res = await request(base + url, { method: method as any, headers, body: options.body });
      const body = await res.body.text();
      const sent = options.body === undefined ? {} : { requestType: headers['content-type'], requestBody: options.body.toString() };
      const ex: Exchange = { method, url, ...sent, status: res.statusCode, headers: res.headers, body };
      exchanges.push(ex);
      return { ...ex, json: () => JSON.parse(body) };
    }
    const send = (method: string, url: string, payload: unknown, headers: Record<string, string> = {}, type = json) =>
      call(method, url, { type, headers, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    before(async () => {
      ({ server, base } = await listening(engine, CONFIG));
    });
    after(() => server.close());

    test('every response of the session conforms to /openapi.json (openapi-backend)', { timeout: 120_000 }, async () => {
      // The API's own documents.
      const doc = (await call('GET', '/openapi.json')).json();
      await call('GET', '/openapi.json', { headers: { 'if-none-match': String(exchanges[0]!.headers.etag) } });
      await call('HEAD', '/openapi.json');
      await call('GET', '/');
      await call('GET', '/', { headers: { accept: 'application/hal+json' } });
      await call('GET', '/', { headers: { accept: 'text/html' } });
      await call('HEAD', '/');
      await call('GET', '/docs');
      await call('GET', '/problems/not-found');
      await call('GET', '/problems/no-such-problem');
      await call('GET', '/.well-known/jwks.json');
      await call('HEAD', '/.well-known/jwks.json');
      await call('GET', '/.well-known/oauth-authorization-server');

      // Credentials: an admin key made directly, everything else over HTTP.
      const admin = bearer((await server.context.auth.apiKeys.create({ name: 'admin', scopes: ['*'] })).key);
      const reader = bearer((await server.context.auth.apiKeys.create({ name: 'reader', scopes: ['events:read'] })).key);
      // Operations: the probes, and the metrics (a token with metrics:read, or admin).
      await call('GET', '/healthz');
      await call('HEAD', '/healthz');
      await call('GET', '/readyz');
      await call('GET', '/metrics');
      await call('GET', '/metrics', { headers: reader });
      await call('GET', '/metrics', { headers: admin });
      const writerKey = await send('POST', '/api-keys', { name: 'writer', scopes: 'characters:write' }, admin);
      const writer = bearer(writerKey.json().key);
      await call('GET', '/api-keys', { headers: admin });
      await call('GET', `/api-keys/${writerKey.json().id}`, { headers: admin });
      await call('HEAD', `/api-keys/${writerKey.json().id}`, { headers: admin });
      await call('GET', '/api-keys/key_nothing', { headers: admin });
      await send('POST', '/api-keys', { name: '' }, admin);
      await send('POST', '/api-keys', { name: 'x' });
      await send('POST', '/api-keys', { name: 'x' }, writer);
      const client = (await send('POST', '/oauth/clients', { name: 'service', scopes: ['characters:write', 'events:read'] }, admin)).json();
      await call('GET', '/oauth/clients', { headers: admin });
      await call('GET', `/oauth/clients/${client.client_id}`, { headers: admin });
      const clientAuth = { authorization: basic(client.client_id, client.client_secret) };

      // OAuth 2.0: a token, its introspection and revocation, and RFC 6749 errors.
      const token = (await send('POST', '/oauth/token', 'grant_type=client_credentials&scope=characters:write%20events:read', clientAuth, form)).json().access_token;
      await send('POST', '/oauth/token', 'grant_type=password', clientAuth, form);
      await send('POST', '/oauth/token', 'grant_type=client_credentials', { authorization: basic(client.client_id, 'wrong') }, form);
      await send('POST', '/oauth/token', '{"grant_type":"client_credentials"}', clientAuth, json);
      await send('POST', '/oauth/introspect', `token=${token}`, clientAuth, form);
      await send('POST', '/oauth/introspect', '', clientAuth, form);
      const spare = (await send('POST', '/oauth/token', 'grant_type=client_credentials', clientAuth, form)).json().access_token;
      await send('POST', '/oauth/revoke', `token=${spare}`, clientAuth, form);
      await send('POST', '/oauth/introspect', `token=${spare}`, clientAuth, form);
      const service = bearer(token);

      // Records: create (with an Idempotency-Key replay), read, list, replace, both patches, delete.
      const homer = await send('POST', '/characters', { name: 'Homer', number: '555-0100' }, { ...service, 'idempotency-key': 'homer-1' });
      await send('POST', '/characters', { name: 'Homer', number: '555-0100' }, { ...service, 'idempotency-key': 'homer-1' });
      await send('POST', '/characters', { name: 'Marge' }, { ...service, 'idempotency-key': 'homer-1' });
      await send('POST', '/characters', { name: 'Homer' }, writer);
      await send('POST', '/characters', { name: 42 }, writer);
      await send('POST', '/characters', '{"name": ', writer);
      await send('POST', '/characters', 'name=Bart', writer, 'text/plain');
      await send('POST', '/characters', { name: 'x'.repeat(1_100_000) }, writer);
      await send('POST', '/characters', { name: 'Bart' });
      await send('POST', '/characters', { name: 'Bart' }, { authorization: 'Bearer' });
      await send('POST', '/characters', { name: 'Bart' }, { authorization: 'Bearer rw_not_a_key' });
      await send('POST', '/characters', { name: 'Bart' }, reader);
      const id = homer.json().id;
      const etag = String(homer.headers.etag);
      await call('GET', `/characters/${id}`);
      await call('GET', `/characters/${id}`, { headers: { accept: 'text/html' } });
      await call('GET', `/characters/${id}`, { headers: { 'if-none-match': etag } });
      await call('HEAD', `/characters/${id}`);
      await call('HEAD', `/characters/${id}`, { headers: { 'if-none-match': etag } });
      await call('GET', `/characters/${id}`, { headers: { 'if-modified-since': String(homer.headers['last-modified']) } });
      await call('GET', `/characters/${id}`, { headers: { accept: 'application/hal+json', 'if-match': etag } });
      await call('GET', `/characters/${id}`, { headers: { 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' } });
      await call('GET', '/characters/999999');
      await call('GET', '/characters?name[startsWith]=Ho&sort=-name&limit=1');
      await call('GET', '/characters?fields=name&total=true');
      await call('GET', '/characters?shoe=size');
      await call('HEAD', '/characters');
      const replaced = await send('PUT', `/characters/${id}`, { name: 'Homer', number: '555-0101' }, { ...writer, 'if-match': etag });
      await send('PUT', `/characters/${id}`, { name: 'Homer' }, { ...writer, 'if-match': etag });
      await send('PUT', '/characters/4242', { name: 'Lisa' }, writer);
      await send('PUT', '/characters/not-an-id', { name: 'Lisa' }, writer);
      await send('PUT', '/characters/4242', 'name=Lisa', writer, 'text/plain');
      await send('POST', '/characters', { name: 'Bart' }, writer, 'application/json; charset=latin1');
      await send('DELETE', '/characters/4242', '', { ...writer, 'if-unmodified-since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, 'text/plain');
      const merge = { ...writer, 'idempotency-key': 'patch-1', 'if-match': String(replaced.headers.etag) };
      await send('PATCH', `/characters/${id}`, { number: null }, merge, 'application/merge-patch+json');
      await send('PATCH', `/characters/${id}`, { number: null }, merge, 'application/merge-patch+json');
      await send('PATCH', `/characters/${id}`, [{ op: 'replace', path: '/number', value: '555-0102' }], writer, 'application/json-patch+json');
      await send('PATCH', `/characters/${id}`, [{ op: 'test', path: '/name', value: 'Bart' }], writer, 'application/json-patch+json');
      await send('PATCH', `/characters/${id}`, { number: '1' }, writer, 'text/plain');
      await send('PATCH', '/characters/999999', { number: '1' }, writer, 'application/merge-patch+json');
      // Prefer: the answers without a body (also replayed), and the record said applied.
      const minimal = { ...writer, prefer: 'return=minimal, handling=lenient' };
      const ned = await send('POST', '/characters', { name: 'Flanders' }, { ...minimal, 'idempotency-key': 'ned-1' });
      await send('POST', '/characters', { name: 'Flanders' }, { ...minimal, 'idempotency-key': 'ned-1' });
      await send('PUT', String(ned.headers.location), { name: 'Flanders', number: '1' }, minimal);
      await send('PUT', '/characters/4343', { name: 'Maude' }, minimal);
      await send('PATCH', String(ned.headers.location), { number: '2' }, minimal, 'application/merge-patch+json');
      await send('PATCH', String(ned.headers.location), { number: '3' }, { ...writer, prefer: 'return=representation' }, 'application/merge-patch+json');
      await call('OPTIONS', `/characters/${id}`);
      await call('OPTIONS', '/characters');
      await call('OPTIONS', '/oauth/token');
      await call('POST', `/characters/${id}`, { headers: writer });
      await call('DELETE', '/characters', { headers: writer });
      await call('GET', '/no/such/path');
      await call('PROPFIND', '/characters');
      await call('DELETE', '/characters/4242', { headers: writer });
      await call('DELETE', '/characters/4242', { headers: writer });
      const note = await send('PUT', '/notes/1', { text: 'first' }, { 'if-none-match': '*' });
      await send('PUT', '/notes/1', { text: 'second' });
      await send('PUT', '/notes/1', { text: 'second' }, { 'if-match': String(note.headers.etag) });
      // A key that may write messages but not read them: 201 with Location only, 204, and 403 for what would read the record.
      const scribe = bearer((await server.context.auth.apiKeys.create({ name: 'scribe', scopes: ['messages:write'] })).key);
      const scribbled = String((await send('POST', '/messages', { subject: 'blind' }, scribe)).headers.location);
      await send('PUT', scribbled, { subject: 'blind 2' }, scribe);
      await send('PUT', '/messages/777', { subject: 'blind 3' }, scribe);
      await send('PATCH', scribbled, { subject: 'blind 4' }, scribe, 'application/merge-patch+json');
      await send('PATCH', scribbled, [{ op: 'test', path: '/subject', value: 'blind 4' }], scribe, 'application/json-patch+json');
      await send('DELETE', scribbled, '', { ...scribe, 'if-match': '"1.x"' }, 'text/plain');
      // String ids: drawn by POST, chosen by PUT, ids breaking the rule, references, cursors and expand.
      await send('POST', '/tags', { label: 'drawn' });
      await send('PUT', '/tags/a3f1', { label: 'hex', note: 1 });
      await send('PUT', '/tags/a.b', { label: 'dot' });
      await call('GET', '/tags/a3f1');
      await call('GET', '/tags/A3F1');
      await call('GET', '/tags/a%20b');
      await send('POST', '/pins', { tag: 'a3f1' });
      await send('POST', '/pins', { tag: 'a b' });
      await call('GET', '/pins?tag=a3f1&expand=tag');
      // An expanded read has a digest ETag and no Last-Modified (the document says it is optional there).
      const expanded = await call('GET', '/tags/a3f1?expand=note,pins');
      await call('GET', '/tags/a3f1?expand=note,pins', { headers: { 'if-none-match': String(expanded.headers.etag) } });
      const tagPage = (await call('GET', '/tags?sort=id&limit=1')).json();
      await call('GET', tagPage._links.next.href);
      await send('PATCH', '/tags/a3f1', { label: 'hex!' }, {}, 'application/merge-patch+json');

      // The event log.
      const events = await call('GET', '/events?limit=2', { headers: service });
      await call('GET', `/events/${events.json()._embedded.events[0].id}`, { headers: service });
      await call('GET', '/events');
      await call('GET', '/events', { headers: writer });
      await call('GET', '/events?cursor=nonsense', { headers: service });
      await call('HEAD', '/events', { headers: service });
      // The live stream: its 200 never ends, so HEAD shows its headers; its refusals are ordinary problems.
      await call('HEAD', '/events/stream', { headers: service });
      await call('GET', '/events/stream');
      await call('GET', '/events/stream', { headers: writer });
      await call('GET', '/events/stream', { headers: { ...service, 'last-event-id': 'evt_00000000000000000000000000000000' } });
      await call('GET', '/events/stream', { headers: { ...service, accept: 'application/json' } });
      await call('GET', '/events/stream?since=1', { headers: service });

      // Webhooks: the demo's mail (JSON 200) and sms (TwiML) sources, their errors, and the inbox.
      const sources = server.app.restwell.config.webhooks.sources;
      const deliver = async (name: string, options: Parameters<typeof sampleRequest>[3] = {}, tamper: Record<string, string> = {}) => {
        const s = sampleRequest(name, sources[name]!, base, options);
        return call('POST', s.url.slice(base.length), { headers: { ...s.headers, ...tamper }, body: s.body });
      };
      const mail = await deliver('mail', { text: 'Mmm, donuts' });
      await call('POST', '/webhooks/mail', { headers: { 'content-type': json, authorization: 'Basic AAAA' }, body: '{}' });
      await deliver('mail', { body: Buffer.from('[1, 2]') });
      await deliver('mail', { text: 'x' }, { 'content-type': 'text/plain' });
      await deliver('sms', { text: 'who is homer?' });
      await call('POST', '/webhooks/nobody', { headers: { 'content-type': json }, body: '{}' });
      await deliver('tiny');
      await deliver('tiny');
      const inbox = '/webhooks/mail/events';
      const deliveryId = mail.json().id;
      await eventually(async () => (await server.app.restwell.store.inbox.get('mail', deliveryId))?.status === 'processed', 'the mail delivery to be processed');
      const page = await call('GET', `${inbox}?limit=5`, { headers: admin });
      await call('GET', `${inbox}?status=lost`, { headers: admin });
      await call('GET', '/webhooks/nobody/events', { headers: admin });
      await call('GET', `${inbox}/${deliveryId}`, { headers: admin });
      await call('GET', `${inbox}/${deliveryId}/attempts`, { headers: admin });
      await call('GET', `${inbox}/${deliveryId}/attempts/1`, { headers: admin });
      await call('POST', `${inbox}/${deliveryId}/attempts`, { headers: admin });
      const failed = page.json()._embedded.deliveries.find((d: any) => d.status === 'failed');
      await call('POST', `${inbox}/${failed.id}/attempts`, { headers: admin });
      await call('GET', inbox, { headers: writer });

      // Records made by the mail source, read until the messages quota runs out.
      for (let i = 0; i < 20 && exchanges.at(-1)!.status !== 429; i++) await call('GET', '/messages', { headers: admin });
      await send('POST', '/oauth/clients', { name: 'x' }, admin, 'text/plain');
      await call('DELETE', `/oauth/clients/${client.client_id}`, { headers: admin });
      await call('DELETE', `/api-keys/${writerKey.json().id}`, { headers: admin });

      // 503: the SQLite database locked by another process (PostgreSQL outages: pg-faults.test.ts).
      if (engine.name === 'sqlite') {
        const other = new BetterSqlite3(databaseFile(server.app.restwell.config.database)!);
        other.exec('BEGIN EXCLUSIVE');
        try {
          await send('POST', '/characters', { name: 'Maggie' }, admin);
        } finally {
          other.exec('ROLLBACK');
          other.close();
        }
      }

      const checker = await ConformanceChecker.create(doc);
      const violations = (await Promise.all(exchanges.map((ex) => checker.check(ex)))).flat();
      assert.deepEqual(violations, [], `the document and the server disagree:\n${violations.join('\n')}`);

      const statuses = new Set(exchanges.map((ex) => ex.status));
      const expected = [200, 201, 204, 304, 400, 401, 403, 404, 405, 409, 412, 413, 415, 422, 428, 429, 501, ...(engine.name === 'sqlite' ? [503] : [])];
      for (const s of expected) assert.ok(statuses.has(s), `the session got a ${s}`);
      const types = new Set(exchanges.map((ex) => String(ex.headers['content-type'] ?? '').split(';')[0]));
      for (const t of ['application/json', 'application/hal+json', 'application/problem+json', 'application/jwk-set+json', 'text/html', 'text/xml']) assert.ok(types.has(t), `the session got ${t}`);
      assert.ok(exchanges.some((ex) => ex.headers['idempotent-replayed'] === 'true'), 'the session replayed an Idempotency-Key');
    });

    test('the checker reports what the document does not say', async () => {
      const checker = await ConformanceChecker.create((await call('GET', '/openapi.json')).json());
      const root = await call('GET', '/');
      const problem = await call('GET', '/characters/999999');
      const admin = bearer((await server.context.auth.apiKeys.create({ name: 'checker', scopes: ['*'] })).key);
      const created = await send('POST', '/characters', { name: 'Ned' }, admin);
      assert.deepEqual(await checker.check(created), []);
      const lies: Exchange[] = [
        { ...created, requestBody: '{"name": 5}' },
        { ...created, requestType: 'text/plain' },
        { ...created, headers: { ...created.headers, location: undefined } },
        { ...root, status: 418 },
        { ...root, headers: { ...root.headers, 'content-type': 'application/xml' } },
        { ...root, body: '{"name": 1}' },
        { ...problem, headers: { ...problem.headers, 'retry-after': 'soon' }, status: 503 },
        { ...problem, url: '/characters', method: 'PATCH' },
      ];
      for (const lie of lies) assert.notDeepEqual(await checker.check(lie), [], JSON.stringify(lie));
    });
  });
}
