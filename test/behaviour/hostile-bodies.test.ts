import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };
const merge = { 'content-type': 'application/merge-patch+json' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };
/** A small depth limit keeps the "result of a patch" cases readable; the 10,000-level cases use it too. */
const MAX_DEPTH = 8;
const config = {
  server: { maxJsonDepth: MAX_DEPTH },
  resources: {
    people: { fields: { name: { type: 'string', required: true }, score: { type: 'number' }, born: { type: 'datetime' }, tags: { type: 'json' } }, access: { read: 'public', write: 'public' } },
  },
};
/** `levels` nested arrays around `inner`, as JSON text. */
const nestedText = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);

for (const engine of engines) {
  describe(`hostile request bodies (${engine.name})`, () => {
    let server: RestwellServer;
    let id: number;
    let stored: Record<string, unknown>;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    const count = async () => (await inject({ method: 'GET', url: '/people?limit=100' })).json().count as number;
    const current = async () => (await inject({ method: 'GET', url: `/people/${id}` })).json();

    before(async () => {
      server = await testServer(engine, config);
      const res = await inject({ method: 'POST', url: '/people', headers: json, payload: { name: 'Homer', tags: { a: 1 } } });
      assert.equal(res.statusCode, 201);
      id = res.json().id;
      stored = res.json();
    });
    after(() => server.close());

    /** A problem with this status and code; nothing was created, and the record is unchanged. */
    async function refused(res: Awaited<ReturnType<typeof inject>>, status: number, code: string, detail?: RegExp) {
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      const body = res.json();
      assert.match(body.type, new RegExp(`/problems/${code}$`));
      if (detail) assert.match(body.detail, detail);
      assert.equal(await count(), 1, 'nothing was created');
      const now = await current();
      assert.equal(now.version, stored.version, 'the record is unchanged');
      return body;
    }

    test('invalid UTF-8 is 400 on every JSON route, never stored as U+FFFD', async () => {
      const bad = Buffer.concat([Buffer.from('{"name":"Ho'), Buffer.from([0xff, 0xfe]), Buffer.from('mer"}')]);
      await refused(await inject({ method: 'POST', url: '/people', headers: json, payload: bad }), 400, 'malformed-json', /UTF-8/);
      await refused(await inject({ method: 'PUT', url: `/people/${id}`, headers: json, payload: bad }), 400, 'malformed-json', /UTF-8/);
      await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: merge, payload: bad }), 400, 'malformed-json', /UTF-8/);
      await refused(await inject({ method: 'POST', url: '/people', headers: { 'content-type': 'application/hal+json' }, payload: bad }), 400, 'malformed-json', /UTF-8/);
      const badOp = Buffer.concat([Buffer.from('[{"op":"replace","path":"/name","value":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]')]);
      await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: jsonPatch, payload: badOp }), 400, 'malformed-json', /UTF-8/);
    });

    test('a declared charset other than UTF-8 is 415; UTF-8 in any spelling is accepted', async () => {
      const post = await inject({ method: 'POST', url: '/people', headers: { 'content-type': 'application/json; charset=iso-8859-1' }, payload: '{"name":"x"}' });
      await refused(post, 415, 'unsupported-media-type', /charset=iso-8859-1/);
      assert.match(String(post.headers['accept-post']), /application\/json/);
      const patch = await inject({ method: 'PATCH', url: `/people/${id}`, headers: { 'content-type': 'application/merge-patch+json; charset=utf-16' }, payload: '{"name":"x"}' });
      await refused(patch, 415, 'unsupported-media-type');
      assert.match(String(patch.headers['accept-patch']), /application\/merge-patch\+json/, 'a 415 to PATCH lists the patch formats (RFC 5789 §2.2)');
      const ok = await inject({ method: 'PATCH', url: `/people/${id}`, headers: { 'content-type': 'application/merge-patch+json; charset=UTF-8' }, payload: '{"name":"Homer"}' });
      assert.equal(ok.statusCode, 200, ok.body);
    });

    test('1e400 is 422 naming the field, never stored as Infinity or null', async () => {
      const body = await refused(await inject({ method: 'POST', url: '/people', headers: json, payload: '{"name":"x","score":1e400}' }), 422, 'validation-failed');
      assert.equal(body.errors[0].pointer, '/score');
      const nested = await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: merge, payload: '{"tags":{"big":[-1e400]}}' }), 422, 'validation-failed');
      assert.equal(nested.errors[0].pointer, '/tags/big/0');
      await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: jsonPatch, payload: '[{"op":"add","path":"/score","value":1e999}]' }), 422, 'validation-failed');
    });

    test('JSON nested 10,000 levels is 422 naming the limit, in a field, a merge patch or a JSON Patch value', async () => {
      const limit = new RegExp(`deeper than ${MAX_DEPTH} levels`);
      await refused(await inject({ method: 'POST', url: '/people', headers: json, payload: `{"name":"x","tags":${nestedText(10_000)}}` }), 422, 'validation-failed', limit);
      await refused(await inject({ method: 'PUT', url: `/people/${id}`, headers: json, payload: `{"name":"x","tags":${nestedText(10_000)}}` }), 422, 'validation-failed', limit);
      await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: merge, payload: `{"tags":${nestedText(10_000)}}` }), 422, 'validation-failed', limit);
      await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: jsonPatch, payload: `[{"op":"add","path":"/tags","value":${nestedText(10_000)}}]` }), 422, 'validation-failed', limit);
      await refused(await inject({ method: 'POST', url: '/people', headers: json, payload: nestedText(10_000) }), 422, 'validation-failed', limit);
    });

    test('a patch cannot build a record nested past the limit, so every record can be read, sent back and patched again', async () => {
      // The deepest record allowed: the record object is level 1, so tags may nest MAX_DEPTH - 1 levels.
      const deepest = `{"name":"Deep","tags":${nestedText(MAX_DEPTH - 1)}}`;
      const created = await inject({ method: 'POST', url: '/people', headers: json, payload: deepest });
      assert.equal(created.statusCode, 201, created.body);
      const deepId = created.json().id;
      // Each patch document is within the limit, but its result would not be.
      const inner = `/tags${'/0'.repeat(MAX_DEPTH - 3)}`;
      const grow = await inject({ method: 'PATCH', url: `/people/${deepId}`, headers: jsonPatch, payload: JSON.stringify([{ op: 'add', path: `${inner}/-`, value: [[1]] }]) });
      assert.equal(grow.statusCode, 422, grow.body);
      assert.match(grow.json().detail, new RegExp(`deeper than ${MAX_DEPTH} levels`));
      const moved = await inject({ method: 'PATCH', url: `/people/${deepId}`, headers: jsonPatch, payload: JSON.stringify([{ op: 'copy', from: '/tags', path: `${inner}/-` }]) });
      assert.equal(moved.statusCode, 422, moved.body);
      const read = await inject({ method: 'GET', url: `/people/${deepId}` });
      assert.equal(read.json().version, 1);
      const putBack = await inject({ method: 'PUT', url: `/people/${deepId}`, headers: json, payload: read.body });
      assert.equal(putBack.statusCode, 200, `the representation can be sent back: ${putBack.body}`);
      const patched = await inject({ method: 'PATCH', url: `/people/${deepId}`, headers: merge, payload: { name: 'Deeper' } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal((await inject({ method: 'DELETE', url: `/people/${deepId}` })).statusCode, 204);
    });

    test('JSON Patch paths through __proto__ or constructor/prototype are 400; nothing is polluted', async () => {
      for (const [path, from] of [['/__proto__/polluted'], ['/tags/__proto__'], ['/constructor/prototype/polluted'], ['/tags/constructor/prototype'], ['/tags/x', '/__proto__'], ['/tags/~1x', '/tags/constructor/prototype']]) {
        const op = from ? { op: 'copy', from, path } : { op: 'add', path, value: { polluted: true } };
        await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: jsonPatch, payload: JSON.stringify([op]) }), 400, 'invalid-patch', /__proto__ or constructor\/prototype/);
      }
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal((Object as unknown as Record<string, unknown>).polluted, undefined);
    });

    test('__proto__ in a merge patch or a POST body is 400; a patch cannot build one either', async () => {
      await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: merge, payload: '{"tags":{"__proto__":{"polluted":true}}}' }), 400, 'malformed-json', /__proto__/);
      await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: merge, payload: '{"constructor":{"prototype":{"polluted":true}}}' }), 400, 'malformed-json');
      await refused(await inject({ method: 'POST', url: '/people', headers: json, payload: '{"name":"x","__proto__":{"polluted":true}}' }), 400, 'malformed-json');
      // {"constructor": {"prototype": …}} would be refused as a body, so it cannot be stored through a patch either.
      const built = await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: jsonPatch, payload: '[{"op":"add","path":"/tags/constructor","value":{"prototype":{"polluted":true}}}]' }), 422, 'validation-failed');
      assert.equal(built.errors[0].pointer, '/tags/constructor');
      // An inherited member is not in the document: copying it must not store a function (as {}).
      const inherited = await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: jsonPatch, payload: '[{"op":"copy","from":"/tags/constructor","path":"/tags/c"}]' }), 422, 'validation-failed');
      assert.equal(inherited.errors[0].pointer, '/tags/c');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    test('leap-second datetimes are 422 on both engines, and so are instants outside years 0000-9999', async () => {
      for (const born of ['2016-12-31T23:59:60Z', '2015-06-30T23:59:60.5Z', '2017-01-01T00:59:60+01:00']) {
        const body = await refused(await inject({ method: 'POST', url: '/people', headers: json, payload: { name: 'x', born } }), 422, 'validation-failed', /leap second/);
        assert.equal(body.errors[0].pointer, '/born');
        await refused(await inject({ method: 'PATCH', url: `/people/${id}`, headers: merge, payload: { born } }), 422, 'validation-failed', /leap second/);
      }
      for (const born of ['0000-01-01T00:00:00+01:00', '9999-12-31T23:59:59-01:00']) {
        await refused(await inject({ method: 'POST', url: '/people', headers: json, payload: { name: 'x', born } }), 422, 'validation-failed', /0000-01-01/);
      }
      const edge = await inject({ method: 'PATCH', url: `/people/${id}`, headers: merge, payload: { born: '2016-12-31T23:59:59.999Z' } });
      assert.equal(edge.statusCode, 200);
      assert.equal(edge.json().born, '2016-12-31T23:59:59.999Z');
      stored = edge.json();
    });
  });
}
