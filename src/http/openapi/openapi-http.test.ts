import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import type { RestwellServer } from '../../server.js';
import { documentFor, RICH_CONFIG } from '../../test-support/openapi-lint.js';
import { bearer, engines, testServer } from '../../test-support/test-server.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks a real response against the document: its status is documented for the operation, every
 * header documented for that status is sent, and a JSON body matches the documented schema.
 */
const seen = new Set<number>();
function conforms(doc: any, ajv: Ajv2020, method: string, path: string, res: LightMyRequestResponse): void {
  seen.add(res.statusCode);
  const op = doc.paths[path]?.[method];
  assert.ok(op, `${method} ${path} is documented`);
  const status = String(res.statusCode);
  const documented = op.responses[status];
  assert.ok(documented, `${method} ${path} documents status ${status}: ${res.body}`);
  const type = String(res.headers['content-type'] ?? '').split(';')[0];
  if (!type) return;
  assert.ok(documented.content?.[type], `${method} ${path} ${status} documents ${type}`);
  if (!type.endsWith('json')) return;
  const validate = ajv.getSchema(`openapi.json#/${pointer('paths', path, method, 'responses', status, 'content', type, 'schema')}`)!;
  assert.ok(validate(res.json()), `${method} ${path} ${status} body matches: ${JSON.stringify(validate.errors)}`);
}

describe('OpenAPI over HTTP', () => {
  let server: RestwellServer;
  const doc = documentFor(RICH_CONFIG) as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
  before(async () => {
    server = await testServer(engines[0], RICH_CONFIG);
  });
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
    const res = await server.app.inject({ url: '/' });
    conforms(doc, ajv, 'get', '/', res);
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

  it('describes what the server really answers: statuses, headers and bodies', async () => {
    const json = { 'content-type': 'application/json' };
    const author = await server.app.inject({ method: 'POST', url: '/authors', headers: json, payload: { name: 'Ada' } });
    conforms(doc, ajv, 'post', '/authors', author);
    assert.ok(author.headers.location && author.headers.etag);
    const body = { title: 'Hello', author: author.json().id, kind: 'news', words: 3, rating: 4.5, publishedAt: '2026-01-31T12:00:00Z', meta: { a: [1] } };
    assert.ok(ajv.getSchema('openapi.json#/components/schemas/BlogPostsInput')!(body), 'the request body matches the documented input');
    const post = await server.app.inject({ method: 'POST', url: '/blog-posts', headers: { ...json, 'idempotency-key': 'k-1' }, payload: body });
    conforms(doc, ajv, 'post', '/blog-posts', post);
    const id = post.json().id;
    conforms(doc, ajv, 'get', '/blog-posts/{id}', await server.app.inject({ url: `/blog-posts/${id}` }));
    conforms(doc, ajv, 'get', '/blog-posts/{id}', await server.app.inject({ url: `/blog-posts/${id}`, headers: { 'if-none-match': String(post.headers.etag) } }));
    conforms(doc, ajv, 'get', '/blog-posts', await server.app.inject({ url: '/blog-posts?status=draft&words[gte]=1&sort=-publishedAt&total=true&limit=5' }));
    conforms(doc, ajv, 'get', '/blog-posts', await server.app.inject({ url: '/blog-posts?fields=title' }));
    conforms(doc, ajv, 'get', '/blog-posts', await server.app.inject({ url: '/blog-posts?words[contains]=1' }));
    const patch = (type: string, payload: unknown, etag = String(post.headers.etag)) =>
      server.app.inject({ method: 'PATCH', url: `/blog-posts/${id}`, headers: { 'content-type': type, 'if-match': etag }, payload: JSON.stringify(payload) });
    conforms(doc, ajv, 'patch', '/blog-posts/{id}', await patch('application/merge-patch+json', { status: 'published', rating: null }));
    conforms(doc, ajv, 'patch', '/blog-posts/{id}', await patch('application/json-patch+json', [{ op: 'replace', path: '/words', value: 4 }]));
    conforms(doc, ajv, 'patch', '/blog-posts/{id}', await patch('text/plain', {}));
    conforms(doc, ajv, 'put', '/blog-posts/{id}', await server.app.inject({ method: 'PUT', url: `/blog-posts/${id}`, headers: json, payload: { ...body, kind: 'poem' } }));
    conforms(doc, ajv, 'put', '/blog-posts/{id}', await server.app.inject({ method: 'PUT', url: '/blog-posts/999', headers: json, payload: body }));
    conforms(doc, ajv, 'delete', '/authors/{id}', await server.app.inject({ method: 'DELETE', url: `/authors/${author.json().id}` }));
    conforms(doc, ajv, 'delete', '/blog-posts/{id}', await server.app.inject({ method: 'DELETE', url: `/blog-posts/${id}`, headers: { 'if-match': '"0.x"' } }));
    conforms(doc, ajv, 'delete', '/blog-posts/{id}', await server.app.inject({ method: 'DELETE', url: `/blog-posts/${id}` }));
    conforms(doc, ajv, 'get', '/blog-posts/{id}', await server.app.inject({ url: `/blog-posts/${id}` }));
    const reader = await bearer(server, ['events:read']);
    const events = await server.app.inject({ url: '/events?type=blog-posts.created', headers: reader });
    conforms(doc, ajv, 'get', '/events', events);
    conforms(doc, ajv, 'get', '/events', await server.app.inject({ url: '/events' }));
    conforms(doc, ajv, 'get', '/events/{id}', await server.app.inject({ url: `/events/${events.json()._embedded.events[0].id}`, headers: reader }));
    conforms(doc, ajv, 'get', '/problems/{code}', await server.app.inject({ url: '/problems/not-found' }));
    const options = await server.app.inject({ method: 'OPTIONS', url: '/blog-posts/1' });
    conforms(doc, ajv, 'options', '/blog-posts/{id}', options);
    assert.ok(options.headers.allow && options.headers['accept-patch']);
    assert.deepEqual([...seen].sort(), [200, 201, 204, 304, 400, 401, 404, 409, 412, 415, 422]);
  });
});
