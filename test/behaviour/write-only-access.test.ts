import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { bearer } from './auth-support.js';

/**
 * Write access must not leak read access. `vaults` may be written with vaults:write
 * but read only with vaults:read; `notes` and `links` are owner-only; `tags` may be written by any
 * token but point into vaults; `locked` requires If-Match.
 */
const CONFIG = {
  resources: {
    vaults: {
      fields: { label: { type: 'string', required: true, unique: true }, secret: { type: 'string' }, meta: { type: 'json' } },
      access: { read: ['vaults:read'], write: ['vaults:write'] },
    },
    locked: { fields: { secret: { type: 'string' } }, requireIfMatch: true, access: { read: ['locked:read'], write: ['locked:write'] } },
    notes: { fields: { text: { type: 'string' }, code: { type: 'string', unique: true } }, access: { read: 'owner', write: 'owner' } },
    links: { fields: { note: { type: 'reference', to: 'notes' } }, access: { read: 'owner', write: 'owner' } },
    tags: { fields: { name: { type: 'string' }, vault: { type: 'reference', to: 'vaults' } }, access: { read: 'public', write: ['tags:write'] } },
  },
};

const SECRET = 'the combination is 12-34-56';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

for (const engine of engines) {
  describe(`write access does not leak read access (${engine.name})`, () => {
    let server: RestwellServer;
    let writer: Record<string, string>;
    let reader: Record<string, string>;
    let both: Record<string, string>;
    let alice: Record<string, string>;
    let bob: Record<string, string>;
    const key = async (scopes: string[], subject?: string) => bearer((await server.context.auth.apiKeys.create({ name: 'k', scopes, subject })).key);
    const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown, type?: string) =>
      server.app.inject({ method: method as 'GET', url, headers: { ...headers, ...(type ? { 'content-type': type } : {}) }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) });
    const read = async (url: string) => {
      const res = await inject('GET', url, reader);
      assert.equal(res.statusCode, 200, res.body);
      return res;
    };
    /** A vault written by a key that may read it, so its secret is stored. */
    const vault = async (label: string) => {
      const res = await inject('POST', '/vaults', both, { label, secret: SECRET, meta: { deep: { pin: 1234 } } });
      assert.equal(res.statusCode, 201, res.body);
      return res.headers.location as string;
    };
    /** Nothing of the stored record: no body, no ETag, no Last-Modified, and the secret nowhere. */
    const recordless = (res: LightMyRequestResponse, status: number) => {
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.body, '');
      assert.equal(res.headers.etag, undefined);
      assert.equal(res.headers['last-modified'], undefined);
      assert.equal(res.headers['content-type'], undefined);
      assert.ok(!JSON.stringify(res.headers).includes(SECRET));
    };
    const problem = (res: LightMyRequestResponse, status: number, code: string) => {
      assert.equal(res.statusCode, status, res.body);
      const body = res.json();
      assert.equal(body.type.split('/').at(-1), code, res.body);
      assert.ok(!res.body.includes(SECRET), 'a problem never carries the stored secret');
      return body;
    };

    before(async () => {
      server = await testServer(engine, CONFIG);
      writer = await key(['vaults:write', 'locked:write', 'tags:write']);
      reader = await key(['vaults:read', 'locked:read']);
      both = await key(['vaults:read', 'vaults:write', 'locked:read', 'locked:write', 'tags:write']);
      alice = await key([], 'alice');
      bob = await key([], 'bob');
    });
    after(() => server.close());

    test('a write-only key cannot read, and POST gives it 201 with Location only', async () => {
      const res = await inject('POST', '/vaults', writer, { label: 'w1', secret: SECRET });
      recordless(res, 201);
      assert.match(String(res.headers.location), /^\/vaults\/\d+$/);
      assert.match(String(res.headers.vary), /Authorization/);
      assert.equal((await inject('GET', String(res.headers.location), writer)).statusCode, 403);
      assert.equal((await read(String(res.headers.location))).json().secret, SECRET, 'the record was written');
      // A key that may read gets the record as before.
      const full = await inject('POST', '/vaults', both, { label: 'b1' });
      assert.equal(full.statusCode, 201);
      assert.equal(full.json().label, 'b1');
      assert.ok(full.headers.etag);
    });

    test('PUT is 204 (or 201 with Location only) and PATCH 204 for it, with neither patch type', async () => {
      const url = await vault('put-me');
      recordless(await inject('PUT', url, writer, { label: 'put-me', secret: 'new' }, 'application/json'), 204);
      assert.equal((await read(url)).json().secret, 'new');
      const created = await inject('PUT', '/vaults/7001', writer, { label: 'at-id' }, 'application/json');
      recordless(created, 201);
      assert.equal(created.headers.location, '/vaults/7001');
      recordless(await inject('PATCH', url, writer, { secret: 'merged' }, MERGE), 204);
      recordless(await inject('PATCH', url, writer, [{ op: 'replace', path: '/secret', value: 'replaced' }, { op: 'add', path: '/meta', value: { a: 1 } }], JSON_PATCH), 204);
      const now = (await read(url)).json();
      assert.equal(now.secret, 'replaced');
      assert.deepEqual(now.meta, { a: 1 });
      // The same writes by a key that may read answer with the record.
      assert.equal((await inject('PATCH', url, both, { secret: 'x' }, MERGE)).json().secret, 'x');
      assert.equal((await inject('PUT', url, both, { label: 'put-me' }, 'application/json')).statusCode, 200);
    });

    test('a result over the record limit is 413 for it without the size, which would measure what is stored', async () => {
      const res = await inject('POST', '/vaults', both, { label: 'big', secret: 's'.repeat(300_000) });
      assert.equal(res.statusCode, 201, res.body);
      const url = res.headers.location as string;
      const filler = 'f'.repeat(800_000);
      for (const [payload, type] of [[{ meta: filler }, MERGE], [[{ op: 'add', path: '/meta', value: filler }], JSON_PATCH]] as const) {
        const blind = problem(await inject('PATCH', url, writer, payload, type), 413, 'record-too-large');
        assert.equal(blind.size, undefined);
        assert.doesNotMatch(blind.detail, /\d+ bytes\) as JSON/, blind.detail);
        // A caller that may read is told the size.
        assert.ok(problem(await inject('PATCH', url, both, payload, type), 413, 'record-too-large').detail.match(/\d+ bytes\) as JSON/));
      }
      assert.equal((await read(url)).json().meta, null, 'nothing was stored');
    });

    test('an Idempotency-Key replay carries no record either, even for a key of the same subject that could read it first', async () => {
      const first = await inject('POST', '/vaults', { ...writer, 'idempotency-key': 'w-1' }, { label: 'idem-w', secret: SECRET }, 'application/json');
      recordless(first, 201);
      const replay = await inject('POST', '/vaults', { ...writer, 'idempotency-key': 'w-1' }, { label: 'idem-w', secret: SECRET }, 'application/json');
      recordless(replay, 201);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.headers.location, first.headers.location);
      assert.match(String(replay.headers.vary), /Authorization/);
      // One subject, two keys: the first request may read, the retry may not.
      const rw = await key(['vaults:read', 'vaults:write'], 'svc');
      const wo = await key(['vaults:write'], 'svc');
      const body = { label: 'idem-svc', secret: SECRET };
      const seen = await inject('POST', '/vaults', { ...rw, 'idempotency-key': 's-1' }, body, 'application/json');
      assert.equal(seen.json().secret, SECRET);
      const retry = await inject('POST', '/vaults', { ...wo, 'idempotency-key': 's-1' }, body, 'application/json');
      recordless(retry, 201);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.headers.location, seen.headers.location);
      const url = String(seen.headers.location);
      assert.equal((await inject('PATCH', url, { ...rw, 'idempotency-key': 'p-1' }, { secret: 'p' }, MERGE)).statusCode, 200);
      recordless(await inject('PATCH', url, { ...wo, 'idempotency-key': 'p-1' }, { secret: 'p' }, MERGE), 204);
    });

    test('JSON Patch test, copy, move and paths below a member are 403 for it, whatever is stored; a reader’s still apply', async () => {
      const url = await vault('oracle');
      const probes = [
        [{ op: 'test', path: '/secret', value: SECRET }],
        [{ op: 'test', path: '/secret', value: 'wrong guess' }],
        [{ op: 'copy', from: '/secret', path: '/label' }],
        [{ op: 'move', from: '/secret', path: '/label' }],
        [{ op: 'replace', path: '/meta/deep/pin', value: 1 }],
        [{ op: 'add', path: '/meta/deep/other', value: 1 }],
      ];
      const details = [];
      for (const patch of probes) details.push(problem(await inject('PATCH', url, writer, patch, JSON_PATCH), 403, 'read-not-allowed').detail);
      assert.equal(details[0], details[1], 'a right and a wrong guess read alike');
      assert.match(details[2], /reads the value stored at \/secret/);
      assert.match(details[4], /goes below the member \/meta/);
      const stored = (await read(url)).json();
      assert.equal(stored.secret, SECRET);
      assert.equal(stored.label, 'oracle');
      // A key that may read: test works as RFC 6902 says.
      assert.equal((await inject('PATCH', url, both, [{ op: 'test', path: '/secret', value: SECRET }, { op: 'copy', from: '/secret', path: '/label' }], JSON_PATCH)).json().label, SECRET);
      problem(await inject('PATCH', url, both, [{ op: 'test', path: '/secret', value: 'wrong guess' }], JSON_PATCH), 409, 'patch-conflict');
    });

    test('preconditions that compare the stored state are 403 for it; server-managed members are never compared', async () => {
      const url = await vault('conditional');
      const etag = String((await read(url)).headers.etag);
      for (const headers of [{ 'if-match': etag }, { 'if-match': '"1.wrong"' }, { 'if-unmodified-since': new Date().toUTCString() }, { 'if-none-match': etag }]) {
        problem(await inject('PATCH', url, { ...writer, ...headers }, { secret: 'c' }, MERGE), 403, 'read-not-allowed');
        problem(await inject('PUT', url, { ...writer, ...headers }, { label: 'conditional' }, 'application/json'), 403, 'read-not-allowed');
        problem(await inject('DELETE', url, { authorization: writer.authorization, ...headers }), 403, 'read-not-allowed');
      }
      recordless(await inject('PATCH', url, { ...writer, 'if-match': '*' }, { secret: 'c' }, MERGE), 204);
      // version/createdAt/updatedAt: refused alike whether the guess is right, never with the current value.
      const version = (await read(url)).json().version;
      const right = problem(await inject('PATCH', url, writer, { version }, MERGE), 422, 'validation-failed');
      const wrong = problem(await inject('PATCH', url, writer, { version: version + 5 }, MERGE), 422, 'validation-failed');
      assert.equal(right.detail, wrong.detail);
      assert.doesNotMatch(right.detail, /currently/);
      problem(await inject('PATCH', url, writer, [{ op: 'test', path: '/version', value: version }], JSON_PATCH), 403, 'read-not-allowed');
      problem(await inject('PATCH', url, writer, [{ op: 'replace', path: '/updatedAt', value: 'x' }], JSON_PATCH), 409, 'patch-conflict');
      const put = problem(await inject('PUT', url, writer, { label: 'conditional', version }, 'application/json'), 422, 'validation-failed');
      assert.equal(put.detail, right.detail);
      // A resource that requires If-Match cannot be changed blind, and its 428 names no ETag.
      const locked = await inject('POST', '/locked', both, { secret: SECRET });
      const required = problem(await inject('PATCH', String(locked.headers.location), writer, { secret: 'x' }, MERGE), 428, 'precondition-required');
      assert.doesNotMatch(required.detail, /"\d+\./);
      problem(await inject('PATCH', String(locked.headers.location), { ...writer, 'if-match': String(locked.headers.etag) }, { secret: 'x' }, MERGE), 403, 'read-not-allowed');
      problem(await inject('DELETE', String(locked.headers.location), { authorization: writer.authorization, 'if-none-match': '*' }), 412, 'precondition-failed');
    });

    test('a unique clash names the record holding the value only to a caller that may read it', async () => {
      const url = await vault('taken');
      const blind = problem(await inject('POST', '/vaults', writer, { label: 'taken' }), 409, 'unique-violation');
      assert.equal(blind.detail, 'label "taken" is already used by another record');
      assert.equal(blind.errors[0].pointer, '/label');
      const seeing = problem(await inject('POST', '/vaults', both, { label: 'taken' }), 409, 'unique-violation');
      assert.equal(seeing.detail, `label "taken" is already used by ${url}`);
      const other = await vault('other');
      assert.equal(problem(await inject('PATCH', other, writer, { label: 'taken' }, MERGE), 409, 'unique-violation').detail, blind.detail);
      assert.equal(problem(await inject('PUT', other, writer, { label: 'taken' }, 'application/json'), 409, 'unique-violation').detail, blind.detail);
      // Owner rules: alice's record is another record to bob, and hers to her.
      const note = await inject('POST', '/notes', alice, { code: 'A1' });
      const bobs = problem(await inject('POST', '/notes', bob, { code: 'A1' }), 409, 'unique-violation');
      assert.equal(bobs.detail, 'code "A1" is already used by another record');
      const own = await inject('POST', '/notes', bob, { code: 'B1' });
      assert.equal(problem(await inject('PATCH', String(own.headers.location), bob, { code: 'A1' }, MERGE), 409, 'unique-violation').detail, bobs.detail);
      assert.equal(problem(await inject('POST', '/notes', alice, { code: 'A1' }), 409, 'unique-violation').detail, `code "A1" is already used by ${note.headers.location}`);
    });

    test('a reference to another owner’s record gets the answer a missing record gets', async () => {
      const aliceNote = (await inject('POST', '/notes', alice, { text: 'hers' })).json().id;
      const missing = 990001;
      const same = (hidden: LightMyRequestResponse, absent: LightMyRequestResponse) => {
        assert.equal(hidden.statusCode, 422);
        assert.equal(absent.statusCode, 422);
        const strip = (res: LightMyRequestResponse) => res.body.replaceAll(String(aliceNote), 'ID').replaceAll(String(missing), 'ID');
        const [h, a] = [JSON.parse(strip(hidden)), JSON.parse(strip(absent))];
        delete h.instance;
        delete a.instance;
        assert.deepEqual(h, a);
        assert.equal(h.errors[0].pointer, '/note');
      };
      same(await inject('POST', '/links', bob, { note: aliceNote }), await inject('POST', '/links', bob, { note: missing }));
      const bobNote = (await inject('POST', '/notes', bob, { text: 'his' })).json().id;
      const link = await inject('POST', '/links', bob, { note: bobNote });
      assert.equal(link.statusCode, 201, link.body);
      const at = String(link.headers.location);
      same(await inject('PATCH', at, bob, { note: aliceNote }, MERGE), await inject('PATCH', at, bob, { note: missing }, MERGE));
      same(await inject('PUT', at, bob, { note: aliceNote }, 'application/json'), await inject('PUT', at, bob, { note: missing }, 'application/json'));
      same(await inject('PUT', '/links/880001', bob, { note: aliceNote }, 'application/json'), await inject('PUT', '/links/880002', bob, { note: missing }, 'application/json'));
      assert.equal((await inject('GET', at, bob)).json().note, bobNote, 'nothing was changed');
      // Another owner's record is 404 like a missing one for every method, conditional or not.
      const hers = `/notes/${aliceNote}`;
      for (const [method, type] of [['GET'], ['DELETE'], ['PATCH', MERGE], ['PUT', 'application/json']] as const) {
        const headers = { authorization: bob.authorization, 'if-match': '"1.x"', ...(type ? { 'content-type': type } : {}) };
        const payload = type ? JSON.stringify({ text: 'x' }) : undefined;
        const hidden = await server.app.inject({ method, url: hers, headers, payload });
        const absent = await server.app.inject({ method, url: `/notes/${missing}`, headers, payload });
        assert.equal(hidden.statusCode, method === 'PUT' ? 404 : absent.statusCode, `${method} ${hidden.body}`);
        if (method !== 'PUT') assert.equal(hidden.body.replaceAll(String(aliceNote), 'ID'), absent.body.replaceAll(String(missing), 'ID'));
      }
    });

    test('a reference into a resource the caller may read none of is 403 whether or not the record exists', async () => {
      const url = await vault('referenced');
      const id = Number(url.split('/').at(-1));
      const tagger = await key(['tags:write']);
      const exists = problem(await inject('POST', '/tags', tagger, { vault: id }), 403, 'reference-forbidden');
      const absent = problem(await inject('POST', '/tags', tagger, { vault: 990002 }), 403, 'reference-forbidden');
      assert.equal(exists.detail, absent.detail);
      assert.match(exists.detail, /vault refers to vaults records, which this request may not read/);
      // A key that may read vaults sets it; the tagger may then change the tag, leaving the reference as it is.
      const tag = await inject('POST', '/tags', both, { name: 't', vault: id });
      assert.equal(tag.statusCode, 201, tag.body);
      const at = String(tag.headers.location);
      assert.equal((await inject('PATCH', at, tagger, { name: 'renamed' }, MERGE)).json().vault, id);
      problem(await inject('PATCH', at, tagger, { vault: 990002 }, MERGE), 403, 'reference-forbidden');
      assert.equal((await inject('PATCH', at, tagger, { vault: null }, MERGE)).json().vault, null);
      problem(await inject('POST', '/tags', both, { vault: 990002 }), 422, 'validation-failed');
    });
  });
}
