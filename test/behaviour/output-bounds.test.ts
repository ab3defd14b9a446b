import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ImportError } from '../../src/json-server/import/import-error.js';
import { inferImport } from '../../src/json-server/import/infer-resources.js';
import { loadImport } from '../../src/json-server/import/load-import.js';
import type { RestwellServer } from '../../src/app/server.js';
import { resolveConfig } from '../../src/config/load.js';
import { MAX_PATCH_OPERATIONS } from '../../src/core/patch-budget.js';
import { defineResources } from '../../src/core/resource.js';
import { MAX_PAGE_BYTES } from '../../src/http/log-page.js';
import { MAX_EMBEDDED_BYTES } from '../../src/resources/http/expand-load.js';
import { openStore } from '../../src/store/open.js';
import { bearer, engines, testServer } from '../../src/test-support/test-server.js';
import { eventually } from './webhooks-support.js';

// A small request must never buy unbounded work or storage. What a write produces is
// bounded by server.recordLimit, checked while it is built; nothing is stored past it.

const json = { 'content-type': 'application/json' };
const merge = { 'content-type': 'application/merge-patch+json' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };
const LIMIT = 8 * 1024;
const notes = { fields: { title: { type: 'string', required: true }, body: { type: 'string' }, extra: { type: 'json' }, copy: { type: 'string' } }, access: { read: 'public', write: 'public' } };

/** A patch of about 3 KB that doubles `/extra` with every operation: 60 doublings of 1 KB is 2^60 KB. */
const doublingPatch = Array.from({ length: 60 }, (_, i) => ({ op: 'copy', from: '/extra', path: `/extra/d${i}` }));

for (const engine of engines) {
  describe(`what a write produces is bounded (${engine.name})`, () => {
    let server: RestwellServer;
    let big: RestwellServer;
    const inject = (s: RestwellServer, opts: Record<string, unknown>) => s.app.inject(opts as any);

    before(async () => {
      server = await testServer(engine, { server: { recordLimit: LIMIT }, resources: { notes } });
      // The defaults: recordLimit is the 1 MB body limit.
      big = await testServer(engine, { resources: { notes } });
    });
    after(async () => {
      await server.close();
      await big.close();
    });

    /** Creates a note and returns it with the number of events in the log. */
    async function note(s: RestwellServer, data: Record<string, unknown>) {
      const res = await inject(s, { method: 'POST', url: '/notes', headers: json, payload: data });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    }
    const eventCount = async (s: RestwellServer) => (await s.store.listEvents({ limit: 100_000 })).length;

    /** A 413 record-too-large (or `code`) problem; the record is as it was and no event was written. */
    async function refused(s: RestwellServer, res: Awaited<ReturnType<typeof inject>>, before: { record?: Record<string, unknown>; events: number }, code = 'record-too-large') {
      assert.equal(res.statusCode, 413, res.body);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      const body = res.json();
      assert.match(body.type, new RegExp(`/problems/${code}$`));
      assert.match(body.detail, code === 'record-too-large' ? /server\.recordLimit/ : /operations|copy/);
      if (before.record) {
        const now = (await inject(s, { method: 'GET', url: `/notes/${before.record.id}` })).json();
        assert.equal(now.version, before.record.version, 'the record is unchanged');
        assert.deepEqual(now.extra, before.record.extra);
      }
      assert.equal(await eventCount(s), before.events, 'no event was written');
      return body;
    }

    test('the doubling copy patch of about 3 KB is a 413 at the operation that crosses the default limit, nothing stored', async () => {
      const record = await note(big, { title: 'seed', extra: { text: 'x'.repeat(1000) } });
      const payload = JSON.stringify(doublingPatch);
      assert.ok(payload.length < 4096, `the patch is small (${payload.length} bytes)`);
      const events = await eventCount(big);
      const body = await refused(big, await inject(big, { method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch, payload }), { record, events });
      // 1 KB doubled 10 times is 1 MB: the eleventh copy (index 10) would cross it, and stops the patch.
      assert.equal(body.operation, 10, body.detail);
      assert.match(body.detail, /^operation 11 \(copy \/extra\/d10\)/);
    });

    test('the same patch under a smaller limit stops sooner; a patch that fits applies', async () => {
      const record = await note(server, { title: 'seed', extra: { text: 'x'.repeat(1000) } });
      const events = await eventCount(server);
      const body = await refused(server, await inject(server, { method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch, payload: doublingPatch }), { record, events });
      assert.equal(body.operation, 3, '1 KB doubled three times is 8 KB, with the rest of the record over');
      const ok = await inject(server, { method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch, payload: doublingPatch.slice(0, 2) });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.ok(JSON.stringify(ok.json().extra).length > 4000);
    });

    test('removing what was copied lets a patch go on, but the bytes it copies are bounded too', async () => {
      const record = await note(server, { title: 'seed', extra: { text: 'x'.repeat(3000) } });
      const churn = Array.from({ length: 10 }, () => [
        { op: 'copy', from: '/extra', path: '/extra/again' },
        { op: 'remove', path: '/extra/again' },
      ]).flat();
      // Each pair leaves the record as it was: within the limit after every operation.
      const first = await inject(server, { method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch, payload: churn.slice(0, 4) });
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(first.json().extra, record.extra);
      const body = await refused(server, await inject(server, { method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch, payload: churn }), { record: first.json(), events: await eventCount(server) }, 'patch-too-large');
      assert.match(body.detail, /copy operations would copy/);
    });

    test('a move into place and a replace that shrinks are measured as what they leave', async () => {
      const record = await note(server, { title: 'seed', body: 'y'.repeat(5000), extra: { a: 'z'.repeat(2500) } });
      // 5 KB + 2.5 KB fits; replacing the body with a copy of extra (and moving extra away) stays within it.
      const res = await inject(server, {
        method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch,
        payload: [{ op: 'replace', path: '/body', value: 'short' }, { op: 'copy', from: '/extra', path: '/extra/b' }, { op: 'move', from: '/extra/b', path: '/extra/c' }],
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().extra.c.a.length, 2500);
    });

    test(`a JSON Patch of more than ${MAX_PATCH_OPERATIONS} operations is a 413, nothing applied`, async () => {
      const record = await note(server, { title: 'seed' });
      const events = await eventCount(server);
      const ops = Array.from({ length: MAX_PATCH_OPERATIONS + 1 }, () => ({ op: 'test', path: '/title', value: 'seed' }));
      const body = await refused(server, await inject(server, { method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch, payload: ops }), { record, events }, 'patch-too-large');
      assert.match(body.detail, new RegExp(`at most ${MAX_PATCH_OPERATIONS}`));
      const fits = await inject(server, { method: 'PATCH', url: `/notes/${record.id}`, headers: jsonPatch, payload: ops.slice(1) });
      assert.equal(fits.statusCode, 200, fits.body);
    });

    test('a merge patch whose result is over the limit is a 413, though its body is small', async () => {
      const record = await note(server, { title: 'seed', body: 'b'.repeat(5000) });
      const events = await eventCount(server);
      const body = await refused(server, await inject(server, { method: 'PATCH', url: `/notes/${record.id}`, headers: merge, payload: { copy: 'c'.repeat(4000) } }), { record, events });
      assert.equal(body.size > LIMIT, true);
      assert.equal(body.limit, LIMIT);
      assert.deepEqual(body.errors, [{ pointer: '', detail: body.detail }]);
    });

    test('PUT and POST of a record over the limit are 413, nothing created', async () => {
      const record = await note(server, { title: 'seed' });
      const events = await eventCount(server);
      const large = { title: 'large', body: 'p'.repeat(LIMIT) };
      await refused(server, await inject(server, { method: 'PUT', url: `/notes/${record.id}`, headers: json, payload: large }), { record, events });
      await refused(server, await inject(server, { method: 'PUT', url: '/notes/999', headers: json, payload: large }), { events });
      assert.equal((await inject(server, { method: 'GET', url: '/notes/999' })).statusCode, 404, 'PUT created nothing');
      const count = (await inject(server, { method: 'GET', url: '/notes?limit=100' })).json().count;
      await refused(server, await inject(server, { method: 'POST', url: '/notes', headers: json, payload: large }), { events });
      assert.equal((await inject(server, { method: 'GET', url: '/notes?limit=100' })).json().count, count, 'POST created nothing');
    });

    test('the limit counts the record as JSON in UTF-8 bytes, escapes included', async () => {
      // 3,000 three-byte characters are 9,000 bytes: over 8 KB though only 3,000 characters long.
      const events = await eventCount(server);
      await refused(server, await inject(server, { method: 'POST', url: '/notes', headers: json, payload: { title: '€'.repeat(3000) } }), { events });
      const ok = await inject(server, { method: 'POST', url: '/notes', headers: json, payload: { title: '€'.repeat(2000) } });
      assert.equal(ok.statusCode, 201, ok.body);
    });

    test('the limit and both problems are in the problem catalog and the OpenAPI description', async () => {
      for (const code of ['record-too-large', 'patch-too-large']) {
        const page = await inject(server, { method: 'GET', url: `/problems/${code}`, headers: { accept: 'application/json' } });
        assert.equal(page.statusCode, 200, `${code} is documented`);
      }
      const doc = (await inject(server, { method: 'GET', url: '/openapi.json' })).json();
      assert.ok(doc.paths['/notes/{id}'].patch.responses['413'], 'PATCH documents its 413');
    });
  });

  describe(`expand embeds a bounded amount (${engine.name})`, () => {
    let server: RestwellServer;
    before(async () => {
      server = await testServer(engine, {
        resources: {
          authors: { fields: { bio: { type: 'string' } }, access: { read: 'public', write: 'public' } },
          posts: { fields: { author: { type: 'reference', to: 'authors' } }, access: { read: 'public', write: 'public' } },
        },
      });
    });
    after(() => server.close());

    test(`a large record referenced by a page of records is embedded at most ${MAX_EMBEDDED_BYTES / 1024 ** 2} MB in all: past that, a 400`, async () => {
      const author = await server.app.inject({ method: 'POST', url: '/authors', headers: json, payload: { bio: 'b'.repeat(900_000) } });
      assert.equal(author.statusCode, 201, author.body);
      for (let i = 0; i < 20; i++) {
        const post = await server.app.inject({ method: 'POST', url: '/posts', headers: json, payload: { author: author.json().id } });
        assert.equal(post.statusCode, 201, post.body);
      }
      // 20 embeddings of 900 KB are 18 MB, from a request of a few bytes and one stored copy.
      const res = await server.app.inject({ method: 'GET', url: '/posts?limit=20&expand=author' });
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      assert.match(res.json().type, /\/problems\/invalid-query$/);
      assert.match(res.json().detail, /expand would embed more than 16 MB of records/);
      const fits = await server.app.inject({ method: 'GET', url: '/posts?limit=5&expand=author' });
      assert.equal(fits.statusCode, 200);
      assert.equal(fits.json()._embedded.posts.filter((p: any) => p._embedded.author.bio.length === 900_000).length, 5);
    });
  });

  describe(`a page of the event log is bounded in bytes (${engine.name})`, () => {
    test(`large events make shorter pages (at most ${MAX_PAGE_BYTES / 1024 ** 2} MB), and next goes on from the last one`, async () => {
      const server = await testServer(engine, { resources: { notes } });
      try {
        const auth = await bearer(server);
        for (let i = 0; i < 18; i++) {
          const res = await server.app.inject({ method: 'POST', url: '/notes', headers: json, payload: { title: `n${i}`, body: 'e'.repeat(1_000_000) } });
          assert.equal(res.statusCode, 201);
        }
        const first = await server.app.inject({ method: 'GET', url: '/events?limit=100', headers: auth });
        assert.equal(first.statusCode, 200);
        const page = first.json();
        assert.ok(page.count >= 1 && page.count < 18, `a shorter page (${page.count} events)`);
        assert.ok(first.body.length <= MAX_PAGE_BYTES + 2048);
        const rest = (await server.app.inject({ method: 'GET', url: page._links.next.href, headers: auth })).json();
        const titles = [...page._embedded.events, ...rest._embedded.events].map((e: any) => e.data.title);
        assert.deepEqual(titles, Array.from({ length: 18 }, (_, i) => `n${i}`), 'every event, once, in order');
      } finally {
        await server.close();
      }
    });
  });

  describe(`a webhook store action over the record limit (${engine.name})`, () => {
    let server: RestwellServer;
    const config = {
      server: { recordLimit: LIMIT },
      resources: { notes },
      webhooks: {
        sources: {
          // Each of three fields takes the whole payload: the record is three times the body.
          fan: { provider: 'generic', verify: 'none', actions: [{ store: 'notes', map: { title: 'payload', body: 'payload', copy: 'payload' } }] },
        },
      },
    };
    before(async () => {
      server = await testServer(engine, config);
    });
    after(() => server.close());

    test('the delivery is refused and kept in the inbox as failed, with no record and no event', async () => {
      const admin = await bearer(server);
      const payload = JSON.stringify({ text: 'w'.repeat(3000) });
      const res = await server.app.inject({ method: 'POST', url: '/webhooks/fan', headers: json, payload });
      assert.equal(res.statusCode, 422, res.body);
      assert.match(res.json().type, /\/problems\/webhook-payload-invalid$/);
      assert.match(res.json().detail, /server\.recordLimit/);
      const inbox = (await server.app.inject({ method: 'GET', url: '/webhooks/fan/events', headers: admin })).json()._embedded.deliveries;
      assert.equal(inbox.length, 1);
      assert.equal(inbox[0].status, 'failed');
      assert.match(inbox[0].lastError, /notes record would be .* more than the 8 KB/);
      assert.equal((await server.app.inject({ method: 'GET', url: '/notes' })).json().count, 0, 'no record');
      const events = (await server.app.inject({ method: 'GET', url: '/events', headers: admin })).json()._embedded.events;
      assert.deepEqual(events.filter((e: { type: string }) => e.type.startsWith('notes.')), [], 'no event');
      // A body that fits three times over is stored.
      const small = await server.app.inject({ method: 'POST', url: '/webhooks/fan', headers: json, payload: JSON.stringify({ text: 'w'.repeat(100) }) });
      assert.ok(small.statusCode < 300, small.body);
      await eventually(async () => (await server.app.inject({ method: 'GET', url: '/notes' })).json().count === 1, 'the worker to store the record that fits');
    });
  });

  describe(`a webhook emit action over the record limit (${engine.name})`, () => {
    test('an event larger than a record may be is refused like a record: the delivery kept as failed, no event', async () => {
      const server = await testServer(engine, { server: { recordLimit: LIMIT }, resources: { notes }, webhooks: { sources: { shout: { provider: 'generic', verify: 'none', actions: [{ emit: true }] } } } });
      try {
        const admin = await bearer(server);
        const res = await server.app.inject({ method: 'POST', url: '/webhooks/shout', headers: json, payload: JSON.stringify({ text: 's'.repeat(LIMIT) }) });
        assert.equal(res.statusCode, 422, res.body);
        assert.match(res.json().detail, /webhook\.shout\.received event would be .*server\.recordLimit/);
        const inbox = (await server.app.inject({ method: 'GET', url: '/webhooks/shout/events', headers: admin })).json()._embedded.deliveries;
        assert.deepEqual(inbox.map((d: { status: string }) => d.status), ['failed']);
        const ok = await server.app.inject({ method: 'POST', url: '/webhooks/shout', headers: json, payload: JSON.stringify({ text: 'small' }) });
        assert.ok(ok.statusCode < 300, ok.body);
        const events = await eventually(async () => {
          const found = (await server.store.listEvents({ limit: 100 })).filter((e) => e.type === 'webhook.shout.received');
          return found.length ? found : undefined;
        }, 'the event of the delivery that fits');
        assert.equal(events.length, 1);
        assert.equal((events[0]!.data as { payload: { text: string } }).payload.text, 'small');
      } finally {
        await server.close();
      }
    });
  });

  describe(`restwell import of a row over the record limit (${engine.name})`, () => {
    test('is refused before anything is written, naming the collection and the row', async () => {
      const url = engine.freshUrl();
      const plan = inferImport({ posts: [{ id: 1, text: 'fits' }, { id: 2, text: 'q'.repeat(LIMIT) }] }, 'db.json');
      const config = resolveConfig({ server: { recordLimit: LIMIT }, resources: plan.resources }, { env: {}, overrides: { database: url } });
      const store = await openStore(url);
      try {
        await assert.rejects(loadImport(store, defineResources(config), plan, { source: 'db.json', replace: false, maxJsonDepth: 64, recordLimit: config.server.recordLimit }), (err: unknown) => {
          assert.ok(err instanceof ImportError);
          assert.equal(err.problems.length, 1);
          assert.match(err.problems[0], /^posts id 2: .*server\.recordLimit/);
          return true;
        });
        await store.sync(defineResources(config), { allowDestructive: false });
        const posts = defineResources(config)[0];
        assert.equal(await store.get(posts, 1), undefined, 'not even the row that fits was written');
      } finally {
        await store.close();
      }
    });
  });
}
