import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEMO_CONFIG } from '../../config/defaults.js';
import { resolveConfig } from '../../config/load.js';
import { defineResources } from '../../core/resource.js';
import { documentFor, lint, RICH_CONFIG } from '../../test-support/openapi-lint.js';
import { routeTable } from '../routes.js';
import { buildOpenApi, openApiPath, PACKAGE } from './document.js';

// The demo config's webhook secrets come from the environment; the document does not depend on them.
const DEMO_ENV = { MAIL_HOOK_USER: 'u', MAIL_HOOK_PASSWORD: 'p', TWILIO_AUTH_TOKEN: 't' };
const demo = () => buildOpenApi({ config: resolveConfig(DEMO_CONFIG, { env: DEMO_ENV }), routes: routeTable(defineResources(resolveConfig(DEMO_CONFIG, { env: DEMO_ENV }))) });

const param = (op: any, name: string) => op.parameters.find((p: any) => p.name === name);

describe('OpenAPI document', () => {
  for (const [name, build] of [['demo config', demo], ['rich config', () => documentFor(RICH_CONFIG)]] as const) {
    it(`validates as OpenAPI 3.1 and passes spectral:oas with no errors or warnings (${name})`, async () => {
      const result = await lint(build());
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
      assert.equal(result.version, '3.1');
      assert.deepEqual(result.findings.filter((f) => f.severity <= 1), []);
    });
  }

  it('has one operation per route of the table, with its operationId and summary', () => {
    const config = resolveConfig(RICH_CONFIG, { env: {} });
    const routes = routeTable(defineResources(config));
    const doc = buildOpenApi({ config, routes }) as any;
    for (const r of routes) {
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      assert.ok(op, `${r.method} ${r.path} is documented`);
      assert.equal(op.operationId, r.operationId);
      assert.equal(op.summary, r.summary);
      assert.ok(op.description.length > 10);
    }
    assert.ok(doc.paths['/blog-posts/{id}'] && !Object.keys(doc.paths).some((p) => p.includes(':')));
  });

  it('takes servers from server.publicUrl (else /) and info.version from package.json', () => {
    const rich = documentFor(RICH_CONFIG) as any;
    assert.deepEqual(rich.servers.map((s: any) => s.url), ['https://api.example.org/v1']);
    assert.equal(rich.info.version, PACKAGE.version);
    assert.deepEqual((demo() as any).servers.map((s: any) => s.url), ['/']);
  });

  it('types the path id per resource id type', () => {
    const doc = documentFor(RICH_CONFIG) as any;
    assert.deepEqual(doc.paths['/authors/{id}'].parameters[0].schema, { type: 'string', format: 'uuid' });
    assert.deepEqual(doc.paths['/blog-posts/{id}'].parameters[0].schema, { type: 'integer', minimum: 1 });
  });

  it('documents every filter and operator a list accepts, typed per field', () => {
    const list = (documentFor(RICH_CONFIG) as any).paths['/blog-posts'].get;
    assert.deepEqual(param(list, 'words[gte]').schema, { type: 'integer' });
    assert.deepEqual(param(list, 'status[in]'), { ...param(list, 'status[in]'), style: 'form', explode: false });
    assert.deepEqual(param(list, 'status[in]').schema.items, { type: 'string', enum: ['draft', 'published'] });
    assert.deepEqual(param(list, 'author').schema, { type: 'string', format: 'uuid' });
    assert.deepEqual(param(list, 'publishedAt[lt]').schema, { type: 'string', format: 'date-time' });
    assert.ok(param(list, 'title[contains]') && param(list, 'title[startsWith]'));
    assert.equal(param(list, 'words[contains]'), undefined, 'contains is for text fields only');
    assert.equal(param(list, 'meta'), undefined, 'json fields cannot be filtered');
    assert.deepEqual(param(list, 'limit').schema, { type: 'integer', minimum: 1, maximum: 100, default: 20 });
    assert.ok(param(list, 'sort').schema.items.enum.includes('-publishedAt'));
    assert.ok(param(list, 'fields').schema.items.enum.includes('meta'));
    assert.ok(param(list, 'cursor') && param(list, 'total'));
    assert.ok(list.responses['200'].headers.Link);
  });

  it('documents bodies, headers and the problems each operation can answer with', () => {
    const doc = documentFor(RICH_CONFIG) as any;
    const item = doc.paths['/blog-posts/{id}'];
    const create = doc.paths['/blog-posts'].post;
    assert.deepEqual(Object.keys(item.patch.requestBody.content), ['application/merge-patch+json', 'application/json-patch+json']);
    assert.equal(doc.components.schemas.JsonPatch.type, 'array');
    assert.deepEqual(Object.keys(create.responses).sort(), ['201', '400', '401', '409', '413', '415', '422', '429', '503']);
    assert.ok(create.responses['201'].headers.Location && create.responses['201'].headers.ETag);
    assert.equal(create.responses['422'].content['application/problem+json'].schema.$ref, '#/components/schemas/ValidationProblem');
    assert.deepEqual(Object.keys(item.get.responses).sort(), ['200', '304', '400', '401', '404', '429', '503']);
    assert.deepEqual(Object.keys(item.delete.responses).sort(), ['204', '400', '401', '404', '409', '412', '429', '503']);
    assert.ok(item.patch.responses['415'].headers['Accept-Patch']);
    const headerNames = (op: any) => op.parameters.map((p: any) => doc.components.parameters[p.$ref?.split('/').pop()]?.name ?? p.name);
    assert.deepEqual(headerNames(create), ['Idempotency-Key']);
    assert.deepEqual(headerNames(item.patch), ['If-Match', 'Idempotency-Key']);
    assert.deepEqual(headerNames(item.put), ['If-Match', 'If-None-Match']);
    assert.deepEqual(item.options.responses['204'].headers.Allow, { $ref: '#/components/headers/Allow' });
    const record = doc.components.schemas.BlogPosts;
    assert.deepEqual(record.properties.status.enum, ['draft', 'published', null]);
    assert.ok(record.required.includes('_links') && record.required.includes('meta'));
  });

  it('documents rows of kinds it does not know yet as valid operations', async () => {
    const config = resolveConfig(RICH_CONFIG, { env: {} });
    const routes = [
      ...routeTable(defineResources(config)),
      { method: 'POST' as const, path: '/hooks/:name', operationId: 'receiveHook', summary: 'Receive a hook', kind: 'hook-receive' },
    ];
    const doc = buildOpenApi({ config, routes }) as any;
    const op = doc.paths['/hooks/{name}'].post;
    assert.equal(op.operationId, 'receiveHook');
    assert.ok(op.responses['201'] && op.responses.default);
    const result = await lint(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    assert.deepEqual(result.findings.filter((f) => f.severity <= 1), []);
  });
});
