import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };

const config = {
  resources: {
    characters: { fields: { name: { type: 'string', required: true, unique: true, maxLength: 20 }, number: { type: 'string', pattern: '^[0-9-]+$' }, age: { type: 'integer', minimum: 0 } }, access: { read: 'public', write: 'public' } },
    quotes: { id: 'uuid', requireIfMatch: true, fields: { text: { type: 'string', required: true }, by: { type: 'reference', to: 'characters' }, mood: { type: 'enum', values: ['happy', 'sad'] }, at: { type: 'datetime' } }, access: { read: 'public', write: 'public' } },
  },
  server: { bodyLimit: '2kb' },
};

for (const engine of engines) {
  describe(`problem responses (${engine.name})`, () => {
    let server: RestwellServer;
    const inject = (opts: Record<string, unknown>) => server.app.inject(opts as any);
    const count = async (url = '/characters') => (await inject({ method: 'GET', url: `${url}?limit=100` })).json().count;
    before(async () => {
      server = await testServer(engine, config);
    });
    after(() => server.close());

    /** Every problem is RFC 9457 problem+json with a type URL that the server documents. */
    async function expectProblem(res: Awaited<ReturnType<typeof inject>>, status: number, code: string) {
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      const body = res.json();
      assert.equal(body.status, status);
      assert.ok(body.title && body.detail, 'title and detail');
      assert.ok(body.instance, 'instance');
      assert.match(body.type, new RegExp(`/problems/${code}$`));
      const doc = await inject({ method: 'GET', url: new URL(body.type).pathname });
      assert.equal(doc.statusCode, 200, `the type URL ${body.type} is documented`);
      assert.doesNotMatch(res.body, /at .*\.(ts|js):\d+/, 'never a stack trace');
      return body;
    }

    test('400: malformed JSON, empty JSON body, bad query', async () => {
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: '{"name": "Homer",' }), 400, 'malformed-json');
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: '' }), 400, 'malformed-json');
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: '{"__proto__": {"x": 1}, "name": "a"}' }), 400, 'malformed-json');
      await expectProblem(await inject({ method: 'GET', url: '/characters?colour=red' }), 400, 'invalid-query');
      await expectProblem(await inject({ method: 'GET', url: '/characters?limit=1000' }), 400, 'invalid-query');
      await expectProblem(await inject({ method: 'PUT', url: '/characters/abc', headers: json, payload: { name: 'x' } }), 400, 'invalid-id');
      assert.equal(await count(), 0, 'nothing was written');
    });

    test('404: unknown path, unknown collection, unknown record, id of the wrong shape', async () => {
      await expectProblem(await inject({ method: 'GET', url: '/nothing-here' }), 404, 'not-found');
      await expectProblem(await inject({ method: 'GET', url: '/characters/12345' }), 404, 'not-found');
      await expectProblem(await inject({ method: 'GET', url: '/characters/abc' }), 404, 'not-found');
      await expectProblem(await inject({ method: 'GET', url: '/quotes/not-a-uuid' }), 404, 'not-found');
      await expectProblem(await inject({ method: 'GET', url: '/problems/no-such-problem' }), 404, 'not-found');
    });

    test('405 with Allow, and 501 for a method nobody implements', async () => {
      const res = await inject({ method: 'PUT', url: '/characters', headers: json, payload: {} });
      await expectProblem(res, 405, 'method-not-allowed');
      assert.match(String(res.headers.allow), /POST/);
      await expectProblem(await inject({ method: 'TRACE', url: '/characters' }), 501, 'not-implemented');
    });

    test('QUERY, with a body or without one, is 501 in Restwell\'s words (not the framework\'s Content-Type complaint)', async () => {
      for (const opts of [{}, { headers: json, payload: '{}' }, { headers: { 'content-type': 'text/plain' }, payload: 'x' }]) {
        const body = await expectProblem(await inject({ method: 'QUERY', url: '/characters', ...opts }), 501, 'not-implemented');
        assert.equal(body.detail, 'QUERY is not implemented by this server; use GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      }
    });

    test('every response, success or problem, carries X-Content-Type-Options: nosniff', async () => {
      const created = await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Nosniff' } });
      for (const res of [
        created,
        await inject({ method: 'GET', url: String(created.headers.location) }),
        await inject({ method: 'HEAD', url: '/characters' }),
        await inject({ method: 'OPTIONS', url: '/characters' }),
        await inject({ method: 'GET', url: '/characters?colour=red' }),
        await inject({ method: 'GET', url: '/characters/%zz' }),
        await inject({ method: 'GET', url: '/nothing-here' }),
        await inject({ method: 'POST', url: '/characters', headers: json, payload: '{' }),
        await inject({ method: 'GET', url: '/openapi.json' }),
        await inject({ method: 'GET', url: '/events' }),
        // Leaves the collection as it found it, for the counts of the tests below.
        await inject({ method: 'DELETE', url: String(created.headers.location) }),
      ]) {
        assert.equal(res.headers['x-content-type-options'], 'nosniff', `${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    });

    test('409: unique violation names the field and the holder; nothing half-written', async () => {
      const first = await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Homer' } });
      assert.equal(first.statusCode, 201);
      const body = await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Homer' } }), 409, 'unique-violation');
      assert.match(body.detail, /name "Homer" is already used by \/characters\/\d+/);
      assert.equal(body.errors[0].pointer, '/name');
      const other = await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Marge' } });
      await expectProblem(await inject({ method: 'PATCH', url: `/characters/${other.json().id}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { name: 'Homer' } }), 409, 'unique-violation');
      assert.equal((await inject({ method: 'GET', url: `/characters/${other.json().id}` })).json().name, 'Marge');
      assert.equal(await count(), 2);
    });

    test('409: a referenced record cannot be deleted', async () => {
      const ch = (await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Lisa' } })).json();
      const q = await inject({ method: 'POST', url: '/quotes', headers: json, payload: { text: 'If anyone wants me, I’ll be in my room.', by: ch.id } });
      assert.equal(q.statusCode, 201, q.body);
      assert.equal(q.json()._links.by.href, `/characters/${ch.id}`, 'a link per reference field');
      assert.match(q.json().id, /^[0-9a-f]{8}-[0-9a-f]{4}-7/, 'uuid v7 ids');
      await expectProblem(await inject({ method: 'DELETE', url: `/characters/${ch.id}` }), 409, 'reference-conflict');
    });

    test('428 where a resource requires conditional writes; with the precondition they work', async () => {
      const created = await inject({ method: 'POST', url: '/quotes', headers: json, payload: { text: 'Doh' } });
      const url = `/quotes/${created.json().id}`;
      const etag = String(created.headers.etag);
      const put = await expectProblem(await inject({ method: 'PUT', url, headers: json, payload: { text: 'D’oh!' } }), 428, 'precondition-required');
      assert.match(put.detail, /If-Match/);
      await expectProblem(await inject({ method: 'PATCH', url, headers: { 'content-type': 'application/merge-patch+json' }, payload: { text: 'x' } }), 428, 'precondition-required');
      await expectProblem(await inject({ method: 'DELETE', url }), 428, 'precondition-required');
      const fresh = `/quotes/0190a000-0000-7000-8000-000000000001`;
      await expectProblem(await inject({ method: 'PUT', url: fresh, headers: json, payload: { text: 'new' } }), 428, 'precondition-required');
      assert.equal((await inject({ method: 'PUT', url: fresh, headers: { ...json, 'if-none-match': '*' }, payload: { text: 'new' } })).statusCode, 201);
      const patched = await inject({ method: 'PATCH', url, headers: { 'content-type': 'application/merge-patch+json', 'if-match': etag }, payload: { text: 'D’oh!' } });
      assert.equal(patched.statusCode, 200);
      assert.equal((await inject({ method: 'DELETE', url, headers: { 'if-match': String(patched.headers.etag) } })).statusCode, 204);
    });

    test('412 is covered by the CRUD suite; 413: body over the limit', async () => {
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: JSON.stringify({ name: 'x'.repeat(5000) }) }), 413, 'body-too-large');
    });

    test('415: a body that is not JSON', async () => {
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: { 'content-type': 'text/plain' }, payload: 'name=Homer' }), 415, 'unsupported-media-type');
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: { 'content-type': 'application/merge-patch+json' }, payload: '{}' }), 415, 'unsupported-media-type');
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Homer' }), 415, 'unsupported-media-type');
    });

    test('422: each broken rule is listed per field as a JSON Pointer', async () => {
      const body = await expectProblem(
        await inject({ method: 'POST', url: '/characters', headers: json, payload: { number: 'abc', age: -1, colour: 'red' } }),
        422,
        'validation-failed',
      );
      const byPointer = Object.fromEntries(body.errors.map((e: any) => [e.pointer, e.detail]));
      assert.match(byPointer['/name'], /required/);
      assert.match(byPointer['/number'], /pattern/);
      assert.match(byPointer['/age'], />= 0/);
      assert.match(byPointer['/colour'], /not a field/);
      const tooLong = await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'x'.repeat(21) } }), 422, 'validation-failed');
      assert.match(tooLong.errors[0].detail, /at most 20 characters/);
      const wrongType = await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 7 } }), 422, 'validation-failed');
      assert.match(wrongType.errors[0].detail, /must be string/);
      await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: [] }), 422, 'validation-failed');
      await expectProblem(await inject({ method: 'POST', url: '/quotes', headers: json, payload: { text: 'x', mood: 'angry' } }), 422, 'validation-failed');
      await expectProblem(await inject({ method: 'POST', url: '/quotes', headers: json, payload: { text: 'x', at: 'yesterday' } }), 422, 'validation-failed');
      const ref = await expectProblem(await inject({ method: 'POST', url: '/quotes', headers: json, payload: { text: 'x', by: 99999 } }), 422, 'validation-failed');
      assert.match(ref.errors[0].detail, /no characters record has id 99999/);
    });

    test('422 for values no engine stores exactly: NUL in text, integers beyond 2^53', async () => {
      const nul = await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'a\u0000b' } }), 422, 'validation-failed');
      assert.match(nul.errors[0].detail, /NUL/);
      const big = await expectProblem(await inject({ method: 'POST', url: '/characters', headers: json, payload: '{"name": "Big", "age": 123456789012345678901}' }), 422, 'validation-failed');
      assert.equal(big.errors[0].pointer, '/age');
      await expectProblem(await inject({ method: 'GET', url: '/characters?name=a%00b' }), 400, 'invalid-query');
    });

    test('no bad input produces a 5xx', async () => {
      const bodies = ['null', '1', '"x"', 'true', '{"name": {"$gt": ""}}', '{"name": null}', JSON.stringify({ name: '\u0000' }), '{"name": "a", "age": 1e400}'];
      for (const payload of bodies) {
        for (const method of ['POST', 'PUT']) {
          const res = await inject({ method, url: method === 'POST' ? '/characters' : '/characters/77', headers: json, payload });
          assert.ok(res.statusCode < 500, `${method} ${payload} → ${res.statusCode} ${res.body}`);
        }
        for (const type of ['application/merge-patch+json', 'application/json-patch+json']) {
          const res = await inject({ method: 'PATCH', url: '/characters/1', headers: { 'content-type': type }, payload });
          assert.ok(res.statusCode < 500, `PATCH ${type} ${payload} → ${res.statusCode} ${res.body}`);
        }
      }
      for (const url of ['/quotes?by=99999999999999999999', '/characters?age=99999999999999999999', '/characters?sort=nope', '/characters?cursor=%%%', '/characters?cursor=eyJ2IjoxfQ', '/characters?age[gt]=abc', '/characters?name[like]=x', '/characters?limit=-1', '/%E0%A4%A']) {
        const res = await inject({ method: 'GET', url });
        assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${url} → ${res.statusCode} ${res.body}`);
      }
    });
  });
}
