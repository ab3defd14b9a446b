import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DEMO_CONFIG } from '../../config/defaults.js';
import { resolveConfig } from '../../config/load.js';
import { defineResources } from '../../core/resource.js';
import { documentFor, lint, RICH_CONFIG } from '../../test-support/openapi-lint.js';
import { routeTable } from '../routes.js';
import { eventTypePatternError } from '../../webhooks/outbound/http/event-type-patterns.js';
import { endpointSecretError, generateEndpointSecret } from '../../webhooks/outbound/secrets.js';
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
    assert.deepEqual(doc.paths['/tags/{id}'].parameters[0].schema, { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', minLength: 1, maxLength: 64 });
  });

  it('documents every filter and operator a list accepts, typed per field', () => {
    const list = (documentFor(RICH_CONFIG) as any).paths['/blog-posts'].get;
    // Integer filters take what the server parses: up to 15 digits, signed (id[gt]=0 included).
    const integer = { type: 'integer', minimum: -999_999_999_999_999, maximum: 999_999_999_999_999 };
    assert.deepEqual(param(list, 'words[gte]').schema, integer);
    assert.deepEqual(param(list, 'id[gt]').schema, integer);
    assert.deepEqual(param(list, 'id[in]').schema.items, integer);
    assert.deepEqual(param(list, 'related').schema, { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 });
    // expand= names exactly the paths this resource can expand (a component per resource).
    const expand = param(list, 'expand').schema;
    assert.match(expand.items.$ref, /\/BlogPostsExpansion$/);
    const expansions = (documentFor(RICH_CONFIG) as any).components.schemas.BlogPostsExpansion.enum;
    assert.ok(expansions.includes('author') && expansions.includes('author.blog-posts') && !expansions.includes('nope'), expansions.join());
    assert.deepEqual(param(list, 'status[in]'), { ...param(list, 'status[in]'), style: 'form', explode: false });
    assert.deepEqual(param(list, 'status[in]').schema.items, { type: 'string', enum: ['draft', 'published'] });
    assert.deepEqual(param(list, 'author').schema, { type: 'string', format: 'uuid' });
    assert.deepEqual(param(list, 'tag').schema, { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', minLength: 1, maxLength: 64 });
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
    // blog-posts has no access block: writes need the scope blog-posts:write, hence 403.
    // 412: If-Match / If-None-Match are evaluated against the collection (it exists, but has no ETag).
    // 200: an array body creates many records (bulk create).
    assert.deepEqual(Object.keys(create.responses).sort(), ['200', '201', '400', '401', '403', '409', '412', '413', '415', '422', '429', '500', '503', '507']);
    assert.ok(create.responses['201'].headers.Location && create.responses['201'].headers.ETag);
    assert.equal(create.responses['422'].content['application/problem+json'].schema.$ref, '#/components/schemas/ValidationProblem');
    assert.deepEqual(Object.keys(item.get.responses).sort(), ['200', '304', '400', '401', '403', '404', '412', '429', '500', '503']);
    assert.deepEqual(Object.keys(item.delete.responses).sort(), ['204', '400', '401', '403', '404', '409', '412', '429', '500', '503', '507']);
    assert.ok(item.patch.responses['415'].headers['Accept-Patch']);
    const headerNames = (op: any) => op.parameters.map((p: any) => doc.components.parameters[p.$ref?.split('/').pop()]?.name ?? p.name);
    assert.deepEqual(headerNames(create), ['Idempotency-Key', 'Prefer', 'If-Match', 'If-None-Match']);
    assert.deepEqual(headerNames(item.patch), ['If-Match', 'If-Unmodified-Since', 'Idempotency-Key', 'Prefer']);
    assert.deepEqual(headerNames(item.put), ['If-Match', 'If-Unmodified-Since', 'If-None-Match', 'Prefer']);
    assert.deepEqual(headerNames(item.get), ['expand', 'If-None-Match', 'If-Modified-Since', 'If-Match', 'If-Unmodified-Since']);
    assert.ok(create.responses['415'].headers['Accept-Post'] && item.put.responses['415'].headers.Accept);
    assert.ok(doc.paths['/blog-posts'].options.responses['204'].headers['Accept-Post']);
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

describe('OpenAPI document: what every operation shares', () => {
  const doc = demo() as any;
  const operations = Object.values<any>(doc.paths).flatMap((item) => Object.entries<any>(item).filter(([m]) => m !== 'parameters'));
  const headersOf = (response: any) => Object.fromEntries(Object.entries<any>(response.headers ?? {}).map(([name, h]) => [name, doc.components.headers[h.$ref.split('/').pop()]]));

  it('documents HEAD beside every GET, with the same statuses and headers and no body', () => {
    for (const item of Object.values<any>(doc.paths)) {
      assert.equal(Boolean(item.head), Boolean(item.get));
      if (!item.get) continue;
      assert.equal(item.head.operationId, `head${item.get.operationId.charAt(0).toUpperCase()}${item.get.operationId.slice(1)}`);
      assert.deepEqual(Object.keys(item.head.responses), Object.keys(item.get.responses));
      for (const [status, r] of Object.entries<any>(item.head.responses)) {
        assert.equal(r.content, undefined);
        assert.deepEqual(r.headers, item.get.responses[status].headers);
      }
    }
    assert.equal(new Set(operations.map(([, op]) => op.operationId)).size, operations.length, 'operationIds are unique');
  });

  it('says security: [] on public operations and a requirement on the others', () => {
    for (const [, op] of operations) assert.ok(Array.isArray(op.security), op.operationId);
    for (const id of ['getRoot', 'getJwks', 'listCharacters', 'getCharacters', 'receiveWebhook', 'optionsCharacters']) {
      assert.deepEqual(operations.find(([, op]) => op.operationId === id)![1].security, [], id);
    }
    assert.deepEqual(doc.paths['/characters'].post.security, [{ bearer: [] }, { oauth2: ['characters:write'] }]);
  });

  it('documents 503 with Retry-After wherever the store is used, and 429 with the RateLimit headers on metered operations', () => {
    for (const [method, op] of operations) {
      const r = op.responses;
      if (op.operationId.startsWith('options') || /Root|OpenApi|AsyncApi|etEventTypes|Docs|ProblemType|AuthorizationServerMetadata|Console|etHealth/.test(op.operationId)) {
        assert.equal(r['503'], undefined, op.operationId);
        continue;
      }
      assert.ok(headersOf(r['503'])['Retry-After']?.required, `${op.operationId} 503`);
      // What writes to the store may find its disk full: 507 insufficient-storage, with Retry-After too.
      if (method !== 'get' && method !== 'head') assert.ok(r['507'] && headersOf(r['507'])['Retry-After']?.required, `${op.operationId} 507`);
      else assert.equal(r['507'], undefined, op.operationId);
      // The JWK Set and the readiness probe use the store but have no access rule, so the guard never counts them.
      if (/Jwks|etReadiness/.test(op.operationId)) assert.equal(r['429'], undefined);
      else assert.ok(headersOf(r['429'])['Retry-After']?.required && headersOf(r['429']).RateLimit?.required && headersOf(r['429'])['RateLimit-Policy']?.required, `${op.operationId} 429`);
    }
    const success = headersOf(doc.paths['/characters'].get.responses['200']);
    assert.ok(success.RateLimit.required && success['RateLimit-Policy'].required);
    assert.equal(headersOf(doc.paths['/characters'].get.responses['400']).RateLimit.required, false);
    const unmetered = buildOpenApi({ config: resolveConfig({ ...DEMO_CONFIG, auth: { rateLimit: false } }, { env: DEMO_ENV }), routes: routeTable(defineResources(resolveConfig(DEMO_CONFIG, { env: DEMO_ENV }))) }) as any;
    assert.equal(unmetered.paths['/characters'].get.responses['429'], undefined);
    assert.equal(unmetered.paths['/characters'].get.responses['200'].headers.RateLimit, undefined);
  });

  it('puts WWW-Authenticate on 401 and 403, Idempotent-Replayed on what may be a replay', () => {
    for (const [, op] of operations) {
      for (const status of ['401', '403']) {
        if (!op.responses[status] || op.operationId === 'receiveWebhook') continue;
        // Only the guard's insufficient scope challenges; a 403 that may also be another problem (expand-forbidden…) may come without one.
        const codes = [...String(op.responses[status].description).matchAll(/^`([a-z-]+)`:/gm)].map((m) => m[1]);
        const challenge = headersOf(op.responses[status])['WWW-Authenticate'];
        assert.ok(challenge, `${op.operationId} ${status}`);
        assert.equal(challenge.required, status === '401' || codes.every((c) => c === 'forbidden'), `${op.operationId} ${status}`);
      }
    }
    for (const response of [doc.paths['/characters'].post.responses['201'], doc.paths['/characters/{id}'].patch.responses['422']]) {
      assert.equal(headersOf(response)['Idempotent-Replayed'].required, false);
    }
    assert.equal(doc.paths['/api-keys'].post.responses['201'].headers['Idempotent-Replayed'], undefined, 'a secret is never replayed');
  });

  it('documents answers without the record only where a writer may be unable to read it', () => {
    const doc = demo() as any;
    // messages: written with messages:write, read with messages:read.
    const messages = doc.paths['/messages/{id}'];
    assert.ok(messages.patch.responses['204'] && !messages.patch.responses['204'].content);
    assert.ok(messages.put.responses['204'] && messages.put.responses['201']['x-body-optional']);
    assert.equal(doc.paths['/messages'].post.responses['201']['x-body-optional'], true);
    assert.equal(doc.paths['/messages'].post.responses['201'].headers.ETag.$ref, '#/components/headers/ETagOptional');
    assert.match(messages.patch.responses['403'].description, /`read-not-allowed`/);
    // characters: read by anyone, so every writer gets the record.
    const characters = doc.paths['/characters/{id}'];
    // Its 204 is only the one Prefer: return=minimal asks for, and its 201 comes with the ETag even then.
    assert.doesNotMatch(characters.patch.responses['204'].description, /may write but not read/);
    assert.equal(doc.paths['/characters'].post.responses['201'].headers.ETag.$ref, '#/components/headers/ETag');
    assert.doesNotMatch(characters.patch.responses['403'].description, /read-not-allowed/);
  });

  it('documents the OAuth endpoints as OAuth: form bodies, RFC 6749 JSON errors, and the JWK Set media type', () => {
    for (const path of ['/oauth/token', '/oauth/introspect', '/oauth/revoke']) {
      const op = doc.paths[path].post;
      assert.deepEqual(Object.keys(op.requestBody.content), ['application/x-www-form-urlencoded']);
      for (const status of ['400', '401']) assert.equal(op.responses[status].content['application/json'].schema.$ref, '#/components/schemas/OAuthError');
    }
    assert.deepEqual(doc.components.schemas.OAuthError.required, ['error']);
    assert.deepEqual(Object.keys(doc.paths['/.well-known/jwks.json'].get.responses['200'].content), ['application/jwk-set+json']);
    assert.deepEqual(Object.keys(doc.paths['/webhooks/{source}'].post.responses['200'].content), ['application/json', 'text/xml']);
    assert.deepEqual(doc.paths['/webhooks/{source}'].parameters[0].schema.enum, ['mail', 'sms']);
    // A redelivery (inbound or outbound) and a test message take no body: the POST is the whole request.
    const bodiless = ['createWebhookAttempt', 'createWebhookEndpointAttempt', 'sendWebhookEndpointTest'];
    const writes = operations.filter(([m, op]) => ['post', 'put', 'patch'].includes(m) && !bodiless.includes(op.operationId));
    for (const [, op] of writes) assert.ok(op.requestBody?.required, `${op.operationId} documents its body`);
  });

  it('is as strict as the server: JSON Patch ops, event type patterns, secrets, preconditions, 500, and HTML as the alternative', () => {
    const doc = demo() as any;
    const ajv = new Ajv2020({ strict: false });
    // RFC 6902: one variant per operation, each with its op as a constant and the members it needs.
    const ops = doc.components.schemas.JsonPatch.items.oneOf.map((v: any) => [v.properties.op.const, v.required]);
    assert.deepEqual(ops, [['add', ['op', 'path', 'value']], ['remove', ['op', 'path']], ['replace', ['op', 'path', 'value']], ['move', ['op', 'from', 'path']], ['copy', ['op', 'from', 'path']], ['test', ['op', 'path', 'value']]]);
    const patch = ajv.compile(doc.components.schemas.JsonPatch);
    assert.ok(patch([{ op: 'replace', path: '/a~1b/~0c', value: 1 }, { op: 'remove', path: '' }]));
    assert.ok(!patch([{ op: 'replace', path: 'name', value: 1 }]) && !patch([{ op: 'move', path: '/a' }]) && !patch([{ op: 'frobnicate', path: '/a' }]));
    // Event type patterns: exactly those the server accepts (each matches an event type of this API).
    const input = doc.components.schemas.WebhookEndpointInput;
    const patterns: string[] = input.properties.eventTypes.items.enum;
    // The demo's webhook sources store and reply but do not emit: no webhook.* event is ever written, so none is subscribable.
    const known = ['characters', 'messages'].flatMap((r) => ['created', 'updated', 'deleted'].map((a) => `${r}.${a}`));
    for (const p of patterns) assert.equal(eventTypePatternError(p, known), undefined, p);
    for (const p of ['*', 'characters.*', 'messages.deleted']) assert.ok(patterns.includes(p), p);
    for (const p of ['nope.*', 'characters.created.*', 'characters', 'webhook.nope.received', 'webhook.*', 'webhook.mail.received', 'webhook.test']) assert.ok(eventTypePatternError(p, known) && !patterns.includes(p), p);
    // Secrets: the pattern and lengths hold exactly the strings endpointSecretError lets through.
    const secret = ajv.compile(input.properties.secret);
    const b64 = (n: number) => Buffer.alloc(n, 7).toString('base64');
    for (let n = 20; n <= 68; n++) {
      const text = `whsec_${b64(n)}`;
      assert.equal(secret(text), !endpointSecretError(text), `${n} bytes`);
    }
    assert.ok(secret(generateEndpointSecret()));
    for (const text of ['whsec_', `whsec_${b64(30)}!`, `whsec_${b64(30).slice(1)}`, b64(30), `whsec_${b64(31).replace(/=+$/, '')}`]) assert.ok(!secret(text) && endpointSecretError(text), text);
    // An empty If-Match or If-None-Match is not a precondition.
    assert.equal(doc.components.parameters.IfMatch.schema.minLength, 1);
    assert.equal(doc.components.parameters.IfNoneMatch.schema.minLength, 1);
    // Every operation but OPTIONS and HEAD declares 500; text/html is never in `content` beside JSON.
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!op.responses) continue;
        if (method !== 'options' && method !== 'head') assert.ok(op.responses['500'], `${method} ${path} declares 500`);
        for (const [status, r] of Object.entries<any>(op.responses)) {
          const types = Object.keys(r.content ?? {});
          assert.ok(!(types.includes('text/html') && types.length > 1), `${method} ${path} ${status}: ${types.join(', ')}`);
        }
      }
    }
    assert.deepEqual(Object.keys(doc.paths['/characters/{id}'].get.responses['200']['x-alternative-content']), ['text/html']);
    assert.deepEqual(Object.keys(doc.paths['/characters/{id}'].get.responses['404']['x-alternative-content']), ['text/html']);
  });
});
