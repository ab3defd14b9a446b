import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RestwellServer } from '../server.js';
import { ConformanceChecker } from '../../test-support/openapi-conformance.js';
import { documentFor, RICH_CONFIG } from '../../test-support/openapi-lint.js';
import { bearer, engines, testServer } from '../../test-support/test-server.js';

describe('OpenAPI over HTTP', () => {
  let server: RestwellServer;
  let checker: ConformanceChecker;
  const doc = documentFor(RICH_CONFIG) as any;
  const seen = new Set<number>();
  before(async () => {
    server = await testServer(engines[0], RICH_CONFIG);
    checker = await ConformanceChecker.create(doc);
  });

  /** Checks a real response against the document (status, headers, media type, body) and returns it. */
  async function conforming(options: InjectOptions): Promise<LightMyRequestResponse> {
    const res = await server.app.inject(options);
    seen.add(res.statusCode);
    const method = options.method ?? 'GET';
    const { payload } = options;
    const sent = payload === undefined ? {} : {
      requestType: String((options.headers as Record<string, string> | undefined)?.['content-type'] ?? 'application/json'),
      requestBody: typeof payload === 'string' ? payload : JSON.stringify(payload),
    };
    const violations = await checker.check({ method, url: String(options.url), ...sent, status: res.statusCode, headers: res.headers as Record<string, string>, body: res.body });
    assert.deepEqual(violations, [], violations.join('\n'));
    return res;
  }
  after(() => server.close());

  it('serves the document at GET /openapi.json with an ETag, and 304 on revalidation', async () => {
    const res = await server.app.inject({ url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.deepEqual(res.json(), doc);
    const again = await server.app.inject({ url: '/openapi.json', headers: { 'if-none-match': String(res.headers.etag) } });
    assert.equal(again.statusCode, 304);
  });

  it('links the document and the docs page from the API root', async () => {
    const res = await conforming({ url: '/' });
    assert.equal(res.json()._links['service-desc'].href, '/openapi.json');
    assert.equal(res.json()._links['service-doc'].href, '/docs');
  });

  it('renders every operation and schema on GET /docs, with no script and nothing fetched', async () => {
    const res = await server.app.inject({ url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) if (op.operationId) assert.ok(res.body.includes(`id="op-${op.operationId}"`), op.operationId);
    }
    for (const name of Object.keys(doc.components.schemas)) assert.ok(res.body.includes(`id="schema-${name}"`), name);
    assert.ok(res.body.includes('<code>words[gte]</code>'));
    assert.doesNotMatch(res.body, /<script|<link |src="http/);
  });

  it('describes what the server really answers: statuses, headers and bodies (uuid and string ids, references, enums, every field type)', async () => {
    // RICH_CONFIG's resources have no access block, so writing takes a token with their :write scope (here the admin scope).
    const auth = await bearer(server);
    const json = { 'content-type': 'application/json', ...auth };
    const author = await conforming({ method: 'POST', url: '/authors', headers: json, payload: { name: 'Ada' } });
    assert.ok(author.headers.location && author.headers.etag);
    await conforming({ method: 'PUT', url: '/tags/Jz5f9_a', headers: json, payload: { label: 'nanoid' } });
    await conforming({ method: 'POST', url: '/tags', headers: json, payload: { label: 'drawn' } });
    await conforming({ method: 'PUT', url: '/tags/a.b', headers: json, payload: { label: 'dot' } });
    await conforming({ url: '/tags/a%20b' });
    await conforming({ url: '/tags?sort=-id&id[in]=Jz5f9_a,x' });
    const body = { title: 'Hello', author: author.json().id, kind: 'news', words: 3, rating: 4.5, publishedAt: '2026-01-31T12:00:00Z', meta: { a: [1] }, tag: 'Jz5f9_a' };
    const post = await conforming({ method: 'POST', url: '/blog-posts', headers: { ...json, 'idempotency-key': 'k-1' }, payload: body });
    const id = post.json().id;
    const etag = String(post.headers.etag);
    await conforming({ url: `/blog-posts/${id}` });
    await conforming({ url: `/blog-posts/${id}`, headers: { 'if-none-match': etag } });
    await conforming({ url: '/blog-posts?status=draft&words[gte]=1&sort=-publishedAt&total=true&limit=5' });
    await conforming({ url: '/blog-posts?fields=title' });
    await conforming({ url: '/blog-posts?words[contains]=1' });
    const patch = (type: string, payload: unknown) =>
      conforming({ method: 'PATCH', url: `/blog-posts/${id}`, headers: { 'content-type': type, 'if-match': etag, ...auth }, payload: JSON.stringify(payload) });
    await patch('application/merge-patch+json', { status: 'published', rating: null });
    await patch('application/json-patch+json', [{ op: 'replace', path: '/words', value: 4 }]);
    await patch('text/plain', {});
    await conforming({ method: 'PUT', url: `/blog-posts/${id}`, headers: json, payload: { ...body, kind: 'poem' } });
    await conforming({ method: 'PUT', url: '/blog-posts/999', headers: json, payload: body });
    await conforming({ method: 'DELETE', url: `/authors/${author.json().id}`, headers: auth });
    await conforming({ method: 'DELETE', url: `/blog-posts/${id}`, headers: { 'if-match': '"0.x"', ...auth } });
    await conforming({ method: 'DELETE', url: `/blog-posts/${id}`, headers: auth });
    await conforming({ url: `/blog-posts/${id}` });
    const reader = await bearer(server, ['events:read']);
    const events = await conforming({ url: '/events?type=blog-posts.created', headers: reader });
    await conforming({ url: '/events' });
    await conforming({ url: `/events/${events.json()._embedded.events[0].id}`, headers: reader });
    await conforming({ url: '/problems/not-found' });
    const options = await conforming({ method: 'OPTIONS', url: '/tags/Jz5f9_a' });
    assert.ok(options.headers.allow && options.headers['accept-patch']);
    // The post is deleted: OPTIONS answers 404, as GET does.
    assert.equal((await conforming({ method: 'OPTIONS', url: `/blog-posts/${id}` })).statusCode, 404);
    assert.deepEqual([...seen].sort(), [200, 201, 204, 304, 400, 401, 404, 409, 412, 415, 422]);
  });
});
