import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { keyScope, requestFingerprint } from '../../src/http/idempotency.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { apiKey } from './auth-support.js';

/** Authors and their books (a reference), a scoped resource, and owner-only notes. */
const CONFIG = {
  server: { batch: { maxRequests: 5 } },
  resources: {
    authors: { fields: { name: { type: 'string', required: true, unique: true }, born: { type: 'integer' } }, access: { read: 'public', write: ['library:write'] } },
    books: { fields: { title: { type: 'string', required: true }, author: { type: 'reference', to: 'authors' }, note: { type: 'string' } }, access: { read: 'public', write: ['library:write'] } },
    vaults: { fields: { secret: { type: 'string' } }, access: { read: ['vaults:admin'], write: ['vaults:admin'] } },
    notes: { fields: { text: { type: 'string', required: true } }, access: { read: 'owner', write: 'owner' } },
  },
};

for (const engine of engines) {
  describe(`POST /batch and bulk create (${engine.name})`, () => {
    let server: RestwellServer;
    let librarian: Record<string, string>;
    let alice: Record<string, string>;
    let bob: Record<string, string>;
    const batch = (headers: Record<string, string>, requests: unknown[], extra: Record<string, string> = {}) =>
      server.app.inject({ method: 'POST', url: '/batch', headers: { ...headers, ...extra, 'content-type': 'application/json' }, payload: { requests } });
    const count = async (collection: string) => (await server.app.inject({ url: `/${collection}?total=true`, headers: librarian })).json().total as number;
    const eventCount = async () => {
      const admin = { authorization: `Bearer ${await apiKey(server, ['*'], 'admin')}` };
      let n = 0;
      let url: string | undefined = '/events?limit=100';
      while (url) {
        const page = (await server.app.inject({ url, headers: admin })).json();
        n += page._embedded.events.length;
        url = page._links.next?.href;
      }
      return n;
    };

    before(async () => {
      server = await testServer(engine, CONFIG);
      librarian = { authorization: `Bearer ${await apiKey(server, ['library:write'], 'librarian')}` };
      alice = { authorization: `Bearer ${await apiKey(server, [], 'alice')}` };
      bob = { authorization: `Bearer ${await apiKey(server, [], 'bob')}` };
    });
    after(() => server.close());

    test('an author and a book referring to it are created together; each answer is the route’s own, with its event', async () => {
      const before = await eventCount();
      const res = await batch(librarian, [
        { method: 'POST', url: '/authors', body: { name: 'Ursula K. Le Guin', born: 1929 } },
        { method: 'POST', url: '/books', body: { title: 'The Dispossessed', author: '$0.id', note: '$$0.id' } },
        { method: 'PATCH', url: '/authors/$0.id', body: { born: 1930 } },
      ]);
      assert.equal(res.statusCode, 200, res.body);
      const [author, book, patched] = res.json().responses;
      assert.equal(author.status, 201);
      assert.equal(author.headers.location, `/authors/${author.body.id}`);
      assert.match(author.headers.etag, /^"/);
      assert.equal(book.status, 201);
      assert.equal(book.body.author, author.body.id, 'the reference stands for the id, with its JSON type');
      assert.equal(book.body.note, '$0.id', 'a doubled $ keeps the literal');
      assert.equal(patched.status, 200);
      assert.equal(patched.body.born, 1930);
      assert.equal(patched.body.version, 2);
      const stored = await server.app.inject({ url: book.headers.location });
      assert.equal(stored.json().author, author.body.id);
      assert.equal(await eventCount(), before + 3, 'one event per write, committed with the batch');
      const admin = { authorization: `Bearer ${await apiKey(server, ['*'], 'admin')}` };
      const newest = (await server.app.inject({ url: '/events?order=newest&limit=3', headers: admin })).json()._embedded.events.reverse();
      assert.deepEqual(
        newest.map((e: { type: string; recordId: string }) => `${e.type} ${e.recordId}`),
        [`authors.created ${author.body.id}`, `books.created ${book.body.id}`, `authors.updated ${author.body.id}`],
        'the events are in the order of the items',
      );
    });

    test('one failing item applies nothing: its own status and problem, with its index', async () => {
      const [authors, books, events] = [await count('authors'), await count('books'), await eventCount()];
      const res = await batch(librarian, [
        { method: 'POST', url: '/authors', body: { name: 'Octavia E. Butler' } },
        { method: 'POST', url: '/books', body: { title: 'Kindred', author: '$0.id' } },
        { method: 'POST', url: '/books', body: { author: '$0.id' } },
      ]);
      assert.equal(res.statusCode, 422);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      const problem = res.json();
      assert.match(problem.type, /\/problems\/batch-failed$/);
      assert.equal(problem.status, 422);
      assert.equal(problem.index, 2);
      assert.match(problem.problem.type, /\/problems\/validation-failed$/);
      assert.equal(problem.problem.instance, '/books');
      assert.deepEqual(problem.problem.errors.map((e: { pointer: string }) => e.pointer), ['/title']);
      assert.deepEqual([await count('authors'), await count('books'), await eventCount()], [authors, books, events], 'nothing applied, no event');
    });

    test('a clash the database finds (a unique value used twice in the batch) names its item', async () => {
      const res = await batch(librarian, [
        { method: 'POST', url: '/authors', body: { name: 'Same Name' } },
        { method: 'POST', url: '/authors', body: { name: 'Same Name' } },
      ]);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().index, 1);
      assert.match(res.json().problem.type, /unique-violation$/);
      assert.equal((await server.app.inject({ url: '/authors?name=Same%20Name', headers: librarian })).json().count, 0);
    });

    test('each item gets its route’s access rule with the batch’s token: 401, 403 with the challenge, owner rules', async () => {
      const anonymous = await batch({}, [{ method: 'POST', url: '/authors', body: { name: 'Anonymous' } }]);
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().index, 0);
      assert.match(String(anonymous.headers['www-authenticate']), /^Bearer realm="restwell"/);
      const scoped = await batch(librarian, [
        { method: 'POST', url: '/authors', body: { name: 'Allowed' } },
        { method: 'POST', url: '/vaults', body: { secret: 'x' } },
      ]);
      assert.equal(scoped.statusCode, 403);
      assert.equal(scoped.json().index, 1);
      assert.match(scoped.json().problem.type, /\/problems\/forbidden$/);
      assert.match(String(scoped.headers['www-authenticate']), /insufficient_scope/);
      assert.equal((await server.app.inject({ url: '/authors?name=Allowed' })).json().count, 0);

      const mine = await batch(alice, [{ method: 'POST', url: '/notes', body: { text: 'alice' } }]);
      assert.equal(mine.statusCode, 200, mine.body);
      const note = mine.json().responses[0].headers.location;
      const theirs = await batch(bob, [{ method: 'PATCH', url: note, body: { text: 'bob was here' } }]);
      assert.equal(theirs.statusCode, 404, 'another subject’s record does not exist for this caller');
      assert.equal(theirs.json().problem.status, 404);
      const own = await batch(alice, [{ method: 'DELETE', url: note }]);
      assert.equal(own.statusCode, 200);
      assert.deepEqual(own.json().responses[0], { status: 204, headers: {}, body: null });
    });

    test('preconditions and the patch format are the sub-request’s own headers', async () => {
      const created = (await batch(librarian, [{ method: 'POST', url: '/authors', body: { name: 'N. K. Jemisin', born: 1972 } }])).json().responses[0];
      const stale = await batch(librarian, [{ method: 'PUT', url: created.headers.location, headers: { 'If-Match': '"stale"' }, body: { name: 'N. K. Jemisin', born: 1 } }]);
      assert.equal(stale.statusCode, 412);
      assert.equal(stale.json().index, 0);
      const res = await batch(librarian, [
        { method: 'PATCH', url: created.headers.location, headers: { 'If-Match': created.headers.etag, 'Content-Type': 'application/json-patch+json' }, body: [{ op: 'test', path: '/born', value: 1972 }, { op: 'replace', path: '/born', value: 1973 }] },
        { method: 'PATCH', url: created.headers.location, body: { born: null } },
        { method: 'PATCH', url: created.headers.location, headers: { 'Content-Type': 'text/plain' }, body: 'x' },
      ]);
      assert.equal(res.statusCode, 415);
      assert.equal(res.json().index, 2);
      const ok = await batch(librarian, [
        { method: 'PATCH', url: created.headers.location, headers: { 'If-Match': created.headers.etag, 'Content-Type': 'application/json-patch+json' }, body: [{ op: 'test', path: '/born', value: 1972 }, { op: 'replace', path: '/born', value: 1973 }] },
        { method: 'PATCH', url: created.headers.location, body: { name: 'Nora K. Jemisin' } },
      ]);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json().responses.map((r: { body: { born: number; name: string } }) => [r.body.born, r.body.name]), [[1973, 'N. K. Jemisin'], [1973, 'Nora K. Jemisin']]);
    });

    test('each item follows its own Prefer: return=minimal leaves its record out, handling=lenient drops unknown members', async () => {
      const res = await batch(librarian, [
        { method: 'POST', url: '/authors', headers: { prefer: 'return=minimal' }, body: { name: 'Octavia E. Butler' } },
        { method: 'PATCH', url: '/authors/$0.id', headers: { prefer: 'handling=lenient' }, body: { born: 1947, nickname: 'not a field' } },
        { method: 'PATCH', url: '/authors/$0.id', headers: { prefer: 'return=minimal' }, body: { born: 1948 } },
      ]);
      assert.equal(res.statusCode, 200, res.body);
      const [created, lenient, minimal] = res.json().responses;
      assert.equal(created.status, 201);
      assert.equal(created.body, null);
      assert.equal(created.headers['preference-applied'], 'return=minimal');
      assert.match(created.headers.location, /^\/authors\/\d+$/);
      assert.equal(lenient.status, 200);
      assert.equal(lenient.headers['preference-applied'], 'handling=lenient');
      assert.equal(lenient.body.born, 1947);
      assert.equal('nickname' in lenient.body, false);
      assert.equal(minimal.status, 204);
      assert.equal(minimal.body, null);
      assert.match(minimal.headers.etag, /^"/);
      const strict = await batch(librarian, [{ method: 'POST', url: '/authors', body: { name: 'Strict', nickname: 'x' } }]);
      assert.equal(strict.statusCode, 422, strict.body);
      assert.equal(strict.json().index, 0);
    });

    test('bounds, shapes and references that cannot resolve are refused, naming the item where there is one', async () => {
      const six = Array.from({ length: 6 }, (_, i) => ({ method: 'POST', url: '/authors', body: { name: `Many ${i}` } }));
      const tooMany = await batch(librarian, six);
      assert.equal(tooMany.statusCode, 413);
      assert.match(tooMany.json().type, /batch-too-large$/);
      assert.equal((await server.app.inject({ method: 'POST', url: '/batch', headers: { ...librarian, 'content-type': 'application/json' }, payload: { requests: 'no' } })).statusCode, 400);
      const forward = await batch(librarian, [{ method: 'POST', url: '/books', body: { title: 'x', author: '$1.id' } }, { method: 'POST', url: '/authors', body: { name: 'Later' } }]);
      assert.equal(forward.statusCode, 422);
      assert.equal(forward.json().index, 0);
      assert.equal(forward.json().problem.errors[0].pointer, '/author');
      const nowhere = await batch(librarian, [{ method: 'POST', url: '/nowhere', body: {} }]);
      assert.equal(nowhere.statusCode, 404);
      const method = await batch(librarian, [{ method: 'POST', url: '/authors/1', body: {} }]);
      assert.equal(method.statusCode, 405);
      const malformed = await batch(librarian, [{ method: 'POST', url: '/authors', body: { name: 'fine' } }, { url: '/authors' }]);
      assert.equal(malformed.statusCode, 400);
      assert.equal(malformed.json().index, 1);
    });

    test('Idempotency-Key: a retry gets the first answer and applies nothing again', async () => {
      const requests = [{ method: 'POST', url: '/authors', body: { name: 'Idempotent Author' } }, { method: 'POST', url: '/books', body: { title: 'Once', author: '$0.id' } }];
      const first = await batch(librarian, requests, { 'idempotency-key': 'batch-key-1' });
      assert.equal(first.statusCode, 200, first.body);
      const events = await eventCount();
      const retry = await batch(librarian, requests, { 'idempotency-key': 'batch-key-1' });
      assert.equal(retry.statusCode, 200);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.deepEqual(retry.json(), first.json());
      assert.equal(await eventCount(), events);
      assert.equal((await server.app.inject({ url: '/books?title=Once' })).json().count, 1);
    });

    test('Idempotency-Key: a batch whose process died after its commit, before answering, is never applied again', async () => {
      // The state such a crash leaves, built through the store as the first request builds it: the batch's
      // transaction committed its writes and its answer under the key, and the HTTP answer was never stored after.
      const requests = [{ method: 'POST', url: '/authors', body: { name: 'Crashed Author' } }];
      const payload = { requests };
      const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
      const librarianKey = await server.context.auth.authenticate(librarian.authorization, server.context.auth.audience());
      const claim = { scope: keyScope(librarianKey.subject, 'POST', '/batch'), key: 'crashed-batch', id: 'first', fingerprint: requestFingerprint('POST', '/batch', 'application/json', payload), expiresAt: soon(10_000) };
      assert.deepEqual(await server.context.store.claimIdempotencyKey(claim), { claimed: true });
      const authors = server.context.resources.get('authors')!;
      const stored = '{"responses":[{"status":201}]}';
      await server.context.store.batch([() => ({ kind: 'insert', resource: authors, data: { name: 'Crashed Author', born: null }, options: {} })], {
        idempotency: { completion: { scope: claim.scope, key: claim.key, claimId: claim.id, expiresAt: soon(3_600_000) }, response: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: stored }) },
      });
      const retry = await batch(librarian, requests, { 'idempotency-key': 'crashed-batch' });
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.equal(retry.body, stored, 'the answer stored in the batch\'s transaction');
      assert.equal((await server.app.inject({ url: '/authors?name=Crashed%20Author' })).json().count, 1);
    });

    test('POST /{collection} with an array creates every record in one transaction, or none', async () => {
      const post = (payload: unknown, headers = librarian) => server.app.inject({ method: 'POST', url: '/authors', headers: { ...headers, 'content-type': 'application/json' }, payload: payload as object });
      const res = await post([{ name: 'Bulk A' }, { name: 'Bulk B', born: 1900 }]);
      assert.equal(res.statusCode, 200, res.body);
      const created = res.json()._embedded.authors;
      assert.deepEqual(created.map((a: { name: string }) => a.name), ['Bulk A', 'Bulk B']);
      assert.equal(res.json().count, 2);
      assert.equal(created[1]._links.self.href, `/authors/${created[1].id}`);

      const authors = await count('authors');
      const invalid = await post([{ name: 'Bulk C' }, { born: 'old' }, { name: 'Bulk D', born: 'x' }]);
      assert.equal(invalid.statusCode, 422);
      assert.deepEqual(invalid.json().errors.map((e: { pointer: string }) => e.pointer).sort(), ['/1/born', '/1/name', '/2/born']);
      const clash = await post([{ name: 'Bulk E' }, { name: 'Bulk A' }]);
      assert.equal(clash.statusCode, 409);
      assert.equal(clash.json().index, 1);
      assert.equal(clash.json().errors[0].pointer, '/1/name');
      const tooMany = await post(Array.from({ length: 6 }, (_, i) => ({ name: `Bulk many ${i}` })));
      assert.equal(tooMany.statusCode, 413);
      assert.equal(await count('authors'), authors, 'nothing of a refused array was created');
      assert.equal((await post([{ name: 'Anon' }], {})).statusCode, 401);
    });
  });
}
