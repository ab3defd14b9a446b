import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };
const merge = { 'content-type': 'application/merge-patch+json' };
const HAL = { accept: 'application/hal+json' };
const HTML = { accept: 'text/html' };
const CONFIG = {
  ...PUBLIC_DEMO,
  resources: { ...PUBLIC_DEMO.resources, ledgers: { fields: { title: { type: 'string' } }, requireIfMatch: true, access: { read: 'public', write: 'public' } } },
};

/** The HTTP-date `seconds` away from an HTTP-date, in IMF-fixdate form. */
const shift = (httpDate: string, seconds: number) => new Date(Date.parse(httpDate) + seconds * 1000).toUTCString();

for (const engine of engines) {
  describe(`conditional requests, RFC 9110 (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    let n = 0;
    /** A fresh character: its URL, JSON ETag and Last-Modified. */
    const fresh = async () => {
      const res = await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: `c${++n}` } });
      assert.equal(res.statusCode, 201, res.body);
      return { url: String(res.headers.location), etag: String(res.headers.etag), lastModified: String(res.headers['last-modified']) };
    };
    before(async () => {
      server = await testServer(engine, CONFIG);
    });
    after(() => server.close());

    test('JSON, HAL+JSON and HTML each have their own strong ETag; If-None-Match compares with the selected one', async () => {
      const { url, etag } = await fresh();
      const tags = new Map<string, string>();
      for (const accept of ['application/json', 'application/hal+json', 'text/html']) {
        const res = await inject({ url, headers: { accept } });
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers.etag), /^"[^"]+"$/, 'a strong tag');
        tags.set(accept, String(res.headers.etag));
      }
      assert.equal(tags.get('application/json'), etag, 'JSON keeps the record ETag that POST returned');
      assert.equal(new Set(tags.values()).size, 3);
      for (const [accept, tag] of tags) {
        for (const [other, otherTag] of tags) {
          const res = await inject({ url, headers: { accept, 'if-none-match': otherTag } });
          assert.equal(res.statusCode, accept === other ? 304 : 200, `${accept} with the ${other} ETag`);
          assert.equal(res.headers.etag, tag, 'a 304 names the selected representation');
        }
      }
    });

    test('a write whose If-Match is the ETag of the representation its Accept selects succeeds (HAL read, HAL write)', async () => {
      const { url } = await fresh();
      const halTag = String((await inject({ url, headers: HAL })).headers.etag);
      const patched = await inject({ method: 'PATCH', url, headers: { ...merge, ...HAL, 'if-match': halTag }, payload: { number: '1' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.headers['content-type'], 'application/hal+json; charset=utf-8');
      const next = String(patched.headers.etag);
      assert.notEqual(next, halTag);
      assert.equal((await inject({ url, headers: { ...HAL, 'if-none-match': next } })).statusCode, 304, 'the response ETag is the HAL one');
      const put = await inject({ method: 'PUT', url, headers: { ...json, ...HAL, 'if-match': next }, payload: { name: `c${++n}` } });
      assert.equal(put.statusCode, 200, put.body);
      const htmlTag = String((await inject({ url, headers: HTML })).headers.etag);
      assert.equal((await inject({ method: 'DELETE', url, headers: { ...HTML, 'if-match': htmlTag } })).statusCode, 204);
    });

    test('If-Match with the current ETag of another representation is 412, and the detail says which to send', async () => {
      const { url, etag } = await fresh();
      const halTag = String((await inject({ url, headers: HAL })).headers.etag);
      const res = await inject({ method: 'PATCH', url, headers: { ...merge, 'if-match': halTag }, payload: { number: '2' } });
      assert.equal(res.statusCode, 412);
      assert.match(res.json().detail, /application\/hal\+json representation/);
      assert.ok(res.json().detail.includes(etag), 'names the ETag of the selected (JSON) representation');
      assert.equal((await inject({ url })).json().version, 1, 'nothing changed');
      const jsonOnHal = await inject({ method: 'PATCH', url, headers: { ...merge, ...HAL, 'if-match': etag }, payload: { number: '2' } });
      assert.equal(jsonOnHal.statusCode, 412);
    });

    test('If-Modified-Since: 304 when not modified since (one-second resolution), 200 when modified; the three HTTP-date formats', async () => {
      const { url, lastModified } = await fresh();
      assert.ok(Number.isFinite(Date.parse(lastModified)));
      const ims = (value: string, extra: Record<string, string> = {}) => inject({ url, headers: { 'if-modified-since': value, ...extra } });
      const same = await ims(lastModified);
      assert.equal(same.statusCode, 304, 'Last-Modified drops the milliseconds; the comparison does too');
      assert.equal(same.body, '');
      assert.equal(same.headers['last-modified'], lastModified);
      assert.equal(same.headers.vary, 'Accept');
      assert.equal((await ims(shift(lastModified, 60))).statusCode, 304);
      assert.equal((await ims(shift(lastModified, -1))).statusCode, 200);
      const d = new Date(Date.parse(lastModified));
      const weekday = d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
      const [, day, month, year, time] = /^\w+, (\d\d) (\w+) (\d{4}) (\S+) GMT$/.exec(lastModified)!;
      assert.equal((await ims(`${weekday}, ${day}-${month}-${year.slice(2)} ${time} GMT`)).statusCode, 304, 'RFC 850 date');
      assert.equal((await ims(`${weekday.slice(0, 3)} ${month} ${String(Number(day)).padStart(2, ' ')} ${time} ${year}`)).statusCode, 304, 'asctime date');
      for (const invalid of ['yesterday', '2999-01-01T00:00:00Z', `${lastModified}, ${lastModified}`, 'Sun, 31 Feb 2999 00:00:00 GMT', '']) {
        assert.equal((await ims(invalid)).statusCode, 200, `an invalid date is ignored: ${JSON.stringify(invalid)}`);
      }
      assert.equal((await ims(shift(lastModified, 60), { 'if-none-match': '"stale"' })).statusCode, 200, 'If-None-Match takes precedence');
      assert.equal((await inject({ method: 'HEAD', url, headers: { 'if-modified-since': lastModified } })).statusCode, 304);
      const put = await inject({ method: 'PUT', url, headers: { ...json, 'if-modified-since': shift(lastModified, 60) }, payload: { name: `c${++n}` } });
      assert.equal(put.statusCode, 200, 'If-Modified-Since applies to GET and HEAD only');
    });

    test('If-Unmodified-Since: 412 when modified since, evaluated inside the write; ignored beside If-Match or when invalid', async () => {
      const { url, etag, lastModified } = await fresh();
      const before = shift(lastModified, -1);
      for (const [method, payload, headers] of [['PATCH', { number: '9' }, merge], ['PUT', { name: 'taken over' }, json], ['DELETE', undefined, {}]] as const) {
        const res = await inject({ method, url, headers: { ...headers, 'if-unmodified-since': before }, payload });
        assert.equal(res.statusCode, 412, `${method}: ${res.body}`);
        assert.match(res.json().detail, /If-Unmodified-Since/);
      }
      assert.equal((await inject({ url })).json().version, 1, 'nothing changed');
      assert.equal((await inject({ url, headers: { 'if-unmodified-since': before } })).statusCode, 412, 'on GET too (§13.2.2 step 2)');
      assert.equal((await inject({ url, headers: { 'if-unmodified-since': lastModified } })).statusCode, 200);
      const ignored = await inject({ method: 'PATCH', url, headers: { ...merge, 'if-unmodified-since': 'last week' }, payload: { number: '1' } });
      assert.equal(ignored.statusCode, 200, 'an invalid date is ignored');
      const matched = await inject({ method: 'PATCH', url, headers: { ...merge, 'if-match': String(ignored.headers.etag), 'if-unmodified-since': before }, payload: { number: '2' } });
      assert.equal(matched.statusCode, 200, 'If-Match takes precedence over If-Unmodified-Since');
      const stale = await inject({ method: 'PATCH', url, headers: { ...merge, 'if-match': etag, 'if-unmodified-since': shift(lastModified, 3600) }, payload: { number: '3' } });
      assert.equal(stale.statusCode, 412, 'a stale If-Match fails whatever the date says');
      const unmodified = await inject({ method: 'PATCH', url, headers: { ...merge, 'if-unmodified-since': new Date(Date.now() + 5000).toUTCString() }, payload: { number: '4' } });
      assert.equal(unmodified.statusCode, 200);
      const created = await inject({ method: 'PUT', url: '/characters/4242', headers: { ...json, 'if-unmodified-since': before }, payload: { name: 'new at 4242' } });
      assert.equal(created.statusCode, 201, 'a record that does not exist has no modification date: the header is ignored');
    });

    test('If-Match and If-None-Match on GET follow RFC 9110 §13.2.2: 412 on a failed If-Match, If-None-Match: * is 304', async () => {
      const { url, etag } = await fresh();
      assert.equal((await inject({ url, headers: { 'if-match': '"stale"' } })).statusCode, 412);
      assert.equal((await inject({ url, headers: { 'if-match': etag } })).statusCode, 200);
      assert.equal((await inject({ url, headers: { 'if-none-match': '*' } })).statusCode, 304);
      assert.equal((await inject({ url: '/characters/987654', headers: { 'if-match': '"x"' } })).statusCode, 404, 'a 404 ignores preconditions');
    });

    test('requireIfMatch: If-Match: * (or an If-None-Match tag) is not a real precondition: 428; a real ETag passes', async () => {
      const created = await inject({ method: 'PUT', url: '/ledgers/1', headers: { ...json, 'if-none-match': '*' }, payload: { title: 'a' } });
      assert.equal(created.statusCode, 201);
      for (const condition of [{ 'if-match': '*' }, { 'if-none-match': '"x"' }, { 'if-match': 'garbage' }, {}]) {
        const res = await inject({ method: 'PATCH', url: '/ledgers/1', headers: { ...merge, ...condition }, payload: { title: 'b' } });
        assert.equal(res.statusCode, 428, JSON.stringify(condition));
        assert.ok(res.json().detail.includes(String(created.headers.etag)), 'the detail names the ETag to send');
      }
      assert.match((await inject({ method: 'DELETE', url: '/ledgers/1', headers: { 'if-match': '*' } })).json().detail, /If-Match: \* only asks that the record exist/);
      assert.equal((await inject({ url: '/ledgers/1' })).json().title, 'a', 'nothing changed');
      const ok = await inject({ method: 'PATCH', url: '/ledgers/1', headers: { ...merge, 'if-match': String(created.headers.etag) }, payload: { title: 'b' } });
      assert.equal(ok.statusCode, 200);
      const missing = await inject({ method: 'PUT', url: '/ledgers/2', headers: { ...json, 'if-match': '*' }, payload: { title: 'c' } });
      assert.equal(missing.statusCode, 428);
      assert.match(missing.json().detail, /If-None-Match: \*/);
    });

    test('Vary: Accept on every negotiated response: records, lists, root, events, 304s, problem pages, Idempotency-Key replays', async () => {
      const { url, etag } = await fresh();
      const admin = { authorization: `Bearer ${(await server.context.auth.apiKeys.create({ name: 'vary', scopes: ['*'] })).key}` };
      for (const [target, headers] of [[url, {}], [url, HTML], ['/characters', {}], ['/', HAL], ['/problems/not-found', {}], ['/problems/not-found', HTML]] as const) {
        const res = await inject({ url: target, headers });
        assert.equal(res.statusCode, 200, target);
        assert.equal(res.headers.vary, 'Accept', target);
      }
      const events = await inject({ url: '/events', headers: admin });
      assert.equal(events.headers.vary, 'Authorization, Accept', 'who may read the log depends on the token');
      assert.equal((await inject({ url, headers: { 'if-none-match': etag } })).headers.vary, 'Accept');
      const keyed = { ...json, 'idempotency-key': `vary-${engine.name}` };
      const first = await inject({ method: 'POST', url: '/characters', headers: keyed, payload: { name: `c${++n}` } });
      const replay = await inject({ method: 'POST', url: '/characters', headers: keyed, payload: { name: `c${n}` } });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(first.headers.vary, 'Accept');
      assert.equal(replay.headers.vary, 'Accept');
    });

    test('415 names what the method takes: POST in Accept-Post, PUT in Accept, PATCH in Accept-Patch', async () => {
      const { url } = await fresh();
      const cases = [
        ['POST', '/characters', 'accept-post', 'application/json, application/hal+json'],
        ['PUT', url, 'accept', 'application/json, application/hal+json'],
        ['PATCH', url, 'accept-patch', 'application/merge-patch+json, application/json-patch+json'],
      ] as const;
      for (const [method, target, header, types] of cases) {
        // A type with no parser (Fastify refuses it) and a JSON type the method does not take (the route refuses it).
        for (const type of ['text/plain', method === 'PATCH' ? 'application/json' : 'application/merge-patch+json']) {
          const res = await inject({ method, url: target, headers: { 'content-type': type }, payload: '{"name":"x"}' });
          assert.equal(res.statusCode, 415, `${method} ${type}`);
          assert.equal(res.headers[header], types, `${method} ${type}`);
          for (const other of ['accept-post', 'accept', 'accept-patch'].filter((h) => h !== header)) assert.equal(res.headers[other], undefined, `${method} ${type} has no ${other}`);
          assert.ok(res.json().detail.includes(types.split(', ').join(' or ')), res.json().detail);
        }
      }
    });

    test('OPTIONS advertises Accept-Post where POST takes a body, Accept-Patch where PATCH does', async () => {
      const coll = await inject({ method: 'OPTIONS', url: '/characters' });
      assert.equal(coll.headers['accept-post'], 'application/json, application/hal+json');
      assert.equal(coll.headers['accept-patch'], undefined);
      const item = await inject({ method: 'OPTIONS', url: '/characters/1' });
      assert.equal(item.headers['accept-post'], undefined);
      assert.match(String(item.headers['accept-patch']), /merge-patch/);
      assert.equal((await inject({ method: 'OPTIONS', url: '/oauth/token' })).headers['accept-post'], 'application/x-www-form-urlencoded');
      assert.equal((await inject({ method: 'OPTIONS', url: '/webhooks/mail' })).headers['accept-post'], undefined, 'a receiver takes what its provider sends');
    });

    test('POST evaluates If-Match and If-None-Match against the collection, which exists but has no ETag', async () => {
      const count = async () => (await inject({ url: '/characters?total=true' })).json().total;
      const before = await count();
      const post = (headers: Record<string, string>, payload: unknown = { name: `p${++n}` }) => inject({ method: 'POST', url: '/characters', headers: { ...json, ...headers }, payload });
      // Conditions that hold: the collection exists (If-Match: *); no tag matches (If-None-Match); no dates.
      for (const condition of [{ 'if-match': '*' }, { 'if-none-match': '"abc"' }, { 'if-unmodified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' }, { 'if-modified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' }]) {
        assert.equal((await post(condition)).statusCode, 201, JSON.stringify(condition));
      }
      // Conditions that fail: a collection has no ETag to match, and If-None-Match: * asks that it not exist.
      for (const condition of [{ 'if-match': '"abc"' }, { 'if-match': 'W/"abc", "def"' }, { 'if-none-match': '*' }, { 'if-match': '*', 'if-none-match': '*' }]) {
        const res = await post(condition);
        assert.equal(res.statusCode, 412, JSON.stringify(condition));
        assert.match(res.json().type, /\/problems\/precondition-failed$/);
        assert.match(res.json().detail, /the collection \/characters/);
      }
      assert.equal(await count(), before + 4, 'nothing was created by a failed POST');
      // Evaluated before the body is read (RFC 9110 §13.2.1): a malformed body is still 412.
      assert.equal((await post({ 'if-none-match': '*' }, '{"name":')).statusCode, 412);
      // Every POST to a collection, not only resources'; access is decided first (401, not 412).
      assert.equal((await inject({ method: 'POST', url: '/api-keys', headers: { ...json, 'if-none-match': '*' }, payload: { name: 'x' } })).statusCode, 401);
      const admin = { authorization: `Bearer ${(await server.context.auth.apiKeys.create({ name: 'admin', scopes: ['*'] })).key}` };
      for (const url of ['/api-keys', '/oauth/clients', '/webhook-endpoints']) {
        const res = await inject({ method: 'POST', url, headers: { ...json, ...admin, 'if-match': '"abc"' }, payload: { name: 'x', url: 'https://example.com/h' } });
        assert.equal(res.statusCode, 412, `${url}: ${res.body}`);
      }
      // A collection under a record exists with its parent: 404 for a missing one, then 412.
      const ep = await inject({ method: 'POST', url: '/webhook-endpoints', headers: { ...json, ...admin }, payload: { url: 'https://example.com/replays' } });
      const replays = `${ep.headers.location}/replays`;
      assert.equal((await inject({ method: 'POST', url: '/webhook-endpoints/ep_nope/replays', headers: { ...json, ...admin, 'if-none-match': '*' }, payload: {} })).statusCode, 404);
      assert.equal((await inject({ method: 'POST', url: replays, headers: { ...json, ...admin, 'if-none-match': '*' }, payload: {} })).statusCode, 412);
      assert.equal((await inject({ method: 'POST', url: replays, headers: { ...json, ...admin, 'if-match': '*' }, payload: { since: '2026-01-01T00:00:00Z' } })).statusCode, 202);
      assert.equal((await inject({ method: 'POST', url: '/webhooks/mail/events/nope/attempts', headers: { ...admin, 'if-none-match': '*' } })).statusCode, 404);
    });

    test('OPTIONS on a path naming nothing answers 404 as GET does; on one naming something, 204 + Allow', async () => {
      const admin = { authorization: `Bearer ${(await server.context.auth.apiKeys.create({ name: 'options', scopes: ['*'] })).key}` };
      const gone = await fresh();
      assert.equal((await inject({ method: 'DELETE', url: gone.url })).statusCode, 204);
      const live = await fresh();
      const ep = await inject({ method: 'POST', url: '/webhook-endpoints', headers: { ...json, ...admin }, payload: { url: 'https://example.com/options' } });
      assert.equal(ep.statusCode, 201, ep.body);
      const endpoint = String(ep.headers.location);
      const missing = [gone.url, '/characters/0', '/characters/-1', '/characters/abc', '/characters/99999999999999999999', '/webhooks/nope', '/webhooks/nope/events', '/webhook-endpoints/ep_nope', '/webhook-endpoints/ep_nope/secrets', '/webhook-endpoints/ep_nope/replays', `${endpoint}/deliveries/nope`, '/events/evt_nope', '/problems/nope', '/api-keys/key_nope'];
      for (const url of missing) {
        const res = await inject({ method: 'OPTIONS', url, headers: admin });
        assert.equal(res.statusCode, 404, `OPTIONS ${url}: ${res.body}`);
        assert.match(res.json().type, /\/problems\/not-found$/);
        assert.equal(res.headers.allow, undefined);
        if (url === '/webhooks/nope') continue; // POST only: the receiver's own 404 is checked below
        const get = await inject({ method: 'GET', url: url.replace(/\/(secrets|replays)$/, ''), headers: admin });
        assert.equal(get.statusCode, 404, `GET ${url}`);
        assert.equal(res.json().detail, get.json().detail, url);
      }
      for (const url of [live.url, '/webhooks/mail', '/webhooks/mail/events', endpoint, `${endpoint}/secrets`, `${endpoint}/deliveries`, '/problems/not-found', '/characters']) {
        const res = await inject({ method: 'OPTIONS', url, headers: admin });
        assert.equal(res.statusCode, 204, `OPTIONS ${url}: ${res.body}`);
        assert.ok(res.headers.allow, url);
      }
      const receiver = await inject({ method: 'POST', url: '/webhooks/nope', headers: json, payload: {} });
      assert.equal(receiver.statusCode, 404);
      assert.equal((await inject({ method: 'OPTIONS', url: '/webhooks/nope' })).json().detail, receiver.json().detail);
      // Asked as the caller: one who may not read the target learns nothing about it.
      assert.equal((await inject({ method: 'OPTIONS', url: '/webhook-endpoints/ep_nope' })).statusCode, 204);
    });
  });
}
