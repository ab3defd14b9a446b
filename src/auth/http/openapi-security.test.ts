import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../../config/load.js';
import { buildOpenApi } from '../../app/openapi/document.js';
import { routeTable } from '../../app/routes.js';
import { defineResources } from '../../core/resource.js';

test('OpenAPI declares the security schemes and which operations need which scopes', () => {
  const config = resolveConfig({
    resources: {
      characters: { fields: { name: { type: 'string' } }, access: { read: 'public', write: ['characters:write'] } },
      notes: { fields: { text: { type: 'string' } }, access: { read: 'owner', write: 'owner' } },
    },
  }, { env: {} });
  const doc = buildOpenApi({ config, routes: routeTable(defineResources(config)) }) as any;
  const schemes = doc.components.securitySchemes;
  assert.equal(schemes.bearer.scheme, 'bearer');
  assert.equal(schemes.oauth2.flows.clientCredentials.tokenUrl, '/oauth/token');
  assert.ok(schemes.oauth2.flows.clientCredentials.scopes['characters:write']);
  assert.deepEqual(doc.paths['/characters'].get.security, [], 'public reads need nothing');
  assert.deepEqual(doc.paths['/characters'].post.security, [{ bearer: [] }, { oauth2: ['characters:write'] }]);
  assert.ok(doc.paths['/characters'].post.responses['403']);
  assert.deepEqual(doc.paths['/notes/{id}'].get.security, [{ bearer: [] }, { oauth2: [] }]);
  assert.deepEqual(doc.paths['/api-keys'].post.security, [{ bearer: [] }, { oauth2: ['*'] }]);
  assert.deepEqual(doc.paths['/oauth/token'].post.security, [{ clientBasic: [] }, {}]);
});
