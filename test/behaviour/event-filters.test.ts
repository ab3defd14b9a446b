// Filtered event readers on every engine: the live stream (a real socket) with resource, recordId
// and field filters, the paged log with recordId, and webhook endpoints whose `filter` decides
// which deliveries a real receiver gets.
import { RecordingReceiver } from './recording-receiver.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { eventStreams } from '../../src/events/stream/event-streams.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';
import { rawSql } from '../../src/test-support/raw-sql.js';
import { listen, openStream, until, type SseStream } from './stream-support.js';

/** The deliveries at one endpoint's path, as "type name". */
class Receiver extends RecordingReceiver {
  to(path: string) {
    return this.at(path).map((r) => `${r.body.type} ${r.body.data.name}`);
  }
}

const CONFIG = {
  resources: {
    characters: {
      fields: { name: { type: 'string', required: true }, age: { type: 'integer' } },
      access: { read: 'public', write: 'public' },
    },
    notes: { fields: { text: { type: 'string' } }, access: { read: 'public', write: 'public' } },
  },
  webhooks: { outbound: { allowNetworks: ['127.0.0.1'], pollInterval: '50ms' } },
};

for (const engine of engines) {
  describe(`filtered event streams, log and endpoints (${engine.name})`, () => {
    let server: RestwellServer;
    let port: number;
    const receiver = new Receiver();
    const open: SseStream[] = [];
    let admin: Record<string, string>;
    const call = async (method: string, url: string, payload?: unknown) => {
      const type = payload === undefined ? {} : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' };
      const res = await server.app.inject({ method: method as 'GET', url, headers: { ...admin, ...type }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
      return { status: res.statusCode, json: () => res.json(), body: res.body };
    };
    const write = async (method: string, url: string, payload?: unknown) => {
      const res = await call(method, url, payload);
      assert.ok(res.status < 300, res.body);
      return res.status === 204 ? undefined : res.json();
    };
    const stream = async (query: string, headers: Record<string, string> = {}) => {
      const s = await openStream(port, `/events/stream?${query}`, { ...admin, ...headers });
      assert.equal(s.status, 200, s.text);
      open.push(s);
      return s;
    };
    const seen = (s: SseStream) => s.events.map((e) => `${e.data.type} ${e.data.data.name}`);

    before(async () => {
      await receiver.start();
      server = await testServer(engine, CONFIG);
      port = await listen(server);
      admin = await bearer(server);
    });
    after(async () => {
      for (const s of open) s.close();
      await server.close();
      await receiver.close();
    });

    test('bad selections are 400s that say what is wrong', async () => {
      const cases: Array<[string, RegExp]> = [
        ['filter[name][startsWith]=H', /filter\[…\] needs exactly one collection in resource/],
        ['resource=characters,notes&recordId=1', /recordId needs exactly one collection/],
        ['resource=mars&recordId=1', /resource: "mars" is not one of characters, notes/],
        ['resource=characters&filter[nope]=1', /characters has no filterable field "nope"/],
        ['resource=characters&filter[age][startsWith]=1', /startsWith applies only to text fields; age is integer/],
        ['resource=characters&filter[age][gte]=old', /filter\[age\]\[gte\]: "old" is not an integer/],
        ['resource=characters&filter[name][like]=H', /unknown operator "like"/],
        ['resource=characters&filter[name]]=H', /is not a field filter; write filter\[field\]=value/],
        ['resource=characters&recordId=abc', /recordId: "abc" is not an id of characters/],
        ['resource=characters&sort=name', /unknown query parameter "sort"/],
      ];
      for (const [query, detail] of cases) {
        const res = await call('GET', `/events/stream?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.json().type.endsWith('invalid-query'), true, query);
        assert.match(res.json().detail, detail, query);
      }
      assert.equal(eventStreams(server.context, server.app.log).size, 0, 'a refused stream is not counted');
    });

    test('a stream receives only the events its filter selects, judged on each event\'s data', async () => {
      const leia = await write('POST', '/characters', { name: 'Leia', age: 19 });
      const byName = await stream('resource=characters&filter[name][startsWith]=H');
      const byRecord = await stream(`resource=characters&recordId=${leia.id}`);
      const adults = await stream('resource=characters&filter[age][gte]=18&filter[name][ne]=Han');
      const everything = await stream('');
      await until(() => [byName, byRecord, adults, everything].every((s) => s.retry !== undefined), 'the streams to open');
      await write('POST', '/characters', { name: 'Han', age: 30 });
      await write('PATCH', `/characters/${leia.id}`, { name: 'Hera' });
      // Leia stops matching startsWith H: that update is not sent to byName.
      await write('PATCH', `/characters/${leia.id}`, { name: 'Leia' });
      const hobbit = await write('POST', '/characters', { name: 'Hobbit', age: 5 });
      await write('DELETE', `/characters/${hobbit.id}`);
      await write('POST', '/notes', { text: 'Hello' });
      await write('POST', '/characters', { name: 'Luke', age: 18 });
      // The last event matches every filter, so once it arrives, everything before it has too.
      await write('PATCH', `/characters/${leia.id}`, { name: 'Hank' });
      await byName.waitFor(5);
      await byRecord.waitFor(3);
      await adults.waitFor(4);
      await everything.waitFor(8);
      assert.deepEqual(seen(byName), ['characters.created Han', 'characters.updated Hera', 'characters.created Hobbit', 'characters.deleted Hobbit', 'characters.updated Hank']);
      assert.deepEqual(seen(byRecord), ['characters.updated Hera', 'characters.updated Leia', 'characters.updated Hank']);
      assert.deepEqual(seen(adults), ['characters.updated Hera', 'characters.updated Leia', 'characters.created Luke', 'characters.updated Hank']);

      // Resuming catches up from the log with the same filter, then goes live.
      const han = everything.events[0]!.id;
      const resumed = await stream('resource=characters&filter[name][istartsWith]=h', { 'last-event-id': han });
      await resumed.waitFor(4);
      assert.deepEqual(seen(resumed), ['characters.updated Hera', 'characters.created Hobbit', 'characters.deleted Hobbit', 'characters.updated Hank']);
      await write('POST', '/characters', { name: 'hal', age: 1 });
      await resumed.waitFor(5);
      assert.equal(seen(resumed)[4], 'characters.created hal');
    });

    test('GET /events takes recordId (with one collection) and keeps it in its page links', async () => {
      const [leia] = (await call('GET', '/characters?name=Hank')).json()._embedded.characters;
      const first = (await call('GET', `/events?resource=characters&recordId=${leia.id}&limit=2`)).json();
      assert.deepEqual(first._embedded.events.map((e: any) => e.type), ['characters.created', 'characters.updated']);
      assert.match(first._links.next.href, /recordId=/);
      const second = (await call('GET', first._links.next.href)).json();
      assert.deepEqual(second._embedded.events.map((e: any) => e.data.name), ['Leia', 'Hank']);
      assert.equal((await call('GET', `/events?recordId=${leia.id}`)).status, 400);
      const fields = await call('GET', '/events?resource=characters&filter[name]=Han');
      assert.equal(fields.status, 400);
      assert.match(fields.json().detail, /GET \/events filters by resource, recordId and type only/);
      assert.equal((await call('GET', '/events?resource=characters&recordId=999999')).json()._embedded.events.length, 0);
    });

    test('an endpoint filter is checked, shown, changed, and decides which deliveries are made', async () => {
      const bad = await call('POST', '/webhook-endpoints', { url: `${receiver.base}/x`, filter: { resource: 'characters', where: { name: { startsWith: 'H' }, age: { gte: 'old' }, nope: 1 }, extra: true } });
      assert.equal(bad.status, 422, bad.body);
      assert.deepEqual(bad.json().errors.map((e: any) => e.pointer).sort(), ['/filter/extra', '/filter/where/nope']);
      const typed = await call('POST', '/webhook-endpoints', { url: `${receiver.base}/x`, filter: { resource: 'characters', recordId: 'abc', where: { age: { gte: 'old', startsWith: '1' } } } });
      assert.equal(typed.status, 422, typed.body);
      assert.deepEqual(typed.json().errors.map((e: any) => e.pointer).sort(), ['/filter/recordId', '/filter/where/age/gte', '/filter/where/age/startsWith']);
      assert.match(typed.json().errors.find((e: any) => e.pointer === '/filter/where/age/gte').detail, /"old" is not an integer/);
      assert.equal((await call('POST', '/webhook-endpoints', { url: `${receiver.base}/x`, filter: { where: {} } })).json().errors[0].pointer, '/filter/resource');
      assert.equal((await call('POST', '/webhook-endpoints', { url: `${receiver.base}/x`, filter: 'characters' })).json().errors[0].pointer, '/filter');

      const h = await write('POST', '/webhook-endpoints', { url: `${receiver.base}/h`, filter: { resource: 'characters', where: { name: { startsWith: 'H' }, age: { in: [1, 30, 40] } } } });
      assert.deepEqual(h.filter, { resource: 'characters', where: { name: { startsWith: 'H' }, age: { in: [1, 30, 40] } } });
      const luke = (await call('GET', '/characters?name=Luke')).json()._embedded.characters[0];
      const one = await write('POST', '/webhook-endpoints', { url: `${receiver.base}/one`, filter: { resource: 'characters', recordId: luke.id } });
      assert.deepEqual(one.filter, { resource: 'characters', recordId: String(luke.id), where: {} });
      assert.deepEqual((await write('GET', `/webhook-endpoints/${one.id}`)).filter, one.filter);
      const all = await write('POST', '/webhook-endpoints', { url: `${receiver.base}/all`, filter: { resource: 'notes' } });
      // A merge patch reaches into the filter; null removes it.
      const patched = await write('PATCH', `/webhook-endpoints/${all.id}`, { filter: { where: { text: 'Hi' } } });
      assert.deepEqual(patched.filter, { resource: 'notes', where: { text: { eq: 'Hi' } } });
      assert.equal((await write('PATCH', `/webhook-endpoints/${all.id}`, { filter: null })).filter, null);
      // A PUT of the GET body keeps it.
      const { _links, secrets, ...body } = await write('GET', `/webhook-endpoints/${h.id}`);
      assert.deepEqual((await write('PUT', `/webhook-endpoints/${h.id}`, body)).filter, h.filter);

      await write('POST', '/characters', { name: 'Hux', age: 40 });
      await write('POST', '/characters', { name: 'Hugo', age: 41 });
      await write('PATCH', `/characters/${luke.id}`, { name: 'Hal', age: 30 });
      await write('POST', '/notes', { text: 'Hi' });
      await write('DELETE', `/characters/${luke.id}`);
      await until(() => receiver.to('/all').length === 5 && receiver.to('/one').length === 2 && receiver.to('/h').length === 3, 'the deliveries');
      assert.deepEqual(receiver.to('/h'), ['characters.created Hux', 'characters.updated Hal', 'characters.deleted Hal']);
      assert.deepEqual(receiver.to('/one'), ['characters.updated Hal', 'characters.deleted Hal']);
      // Deliveries are derived per endpoint: none was made (not even a skipped one) for a filtered-out event.
      const listed = (await call('GET', `/webhook-endpoints/${h.id}/deliveries`)).json();
      assert.equal(listed._embedded.deliveries.length, 3);
    });
  });
}

for (const engine of engines) {
  test(`a database made before endpoint filters gains the column, and its endpoints have none (${engine.name})`, async () => {
    const url = engine.freshUrl();
    const at = { name: engine.name, freshUrl: () => url };
    const payload = JSON.stringify({ url: 'http://127.0.0.1:9/old' });
    let server = await testServer(at, CONFIG);
    let admin = await bearer(server);
    const made = await server.app.inject({ method: 'POST', url: '/webhook-endpoints', headers: { ...admin, 'content-type': 'application/json' }, payload });
    assert.equal(made.statusCode, 201, made.body);
    await server.close();
    await rawSql(engine, url, 'ALTER TABLE _rw_hook_endpoints DROP COLUMN event_filter');
    server = await testServer(at, CONFIG);
    try {
      admin = await bearer(server);
      const read = await server.app.inject({ method: 'GET', url: `/webhook-endpoints/${made.json().id}`, headers: admin });
      assert.equal(read.json().filter, null);
      const patched = await server.app.inject({ method: 'PATCH', url: `/webhook-endpoints/${made.json().id}`, headers: { ...admin, 'content-type': 'application/merge-patch+json' }, payload: JSON.stringify({ filter: { resource: 'notes' } }) });
      assert.deepEqual(patched.json().filter, { resource: 'notes', where: {} });
    } finally {
      await server.close();
    }
  });
}
