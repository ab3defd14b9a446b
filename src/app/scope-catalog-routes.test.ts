import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scopesOf } from '../auth/access.js';
import { scopeCatalog } from '../auth/scope-catalog.js';
import { resolveConfig } from '../config/load.js';
import { defineResources } from '../core/resource.js';
import { routeTable } from './routes.js';

test('the scope catalog names every scope a route of the route table checks, and nothing no route checks', () => {
  const config = resolveConfig({ resources: { characters: { fields: { name: { type: 'string' } }, access: { read: ['characters:read'], write: ['characters:write'] } } } }, { env: {} });
  const resources = defineResources(config);
  const checked = new Set<string>(['*']);
  for (const route of routeTable(resources, config)) {
    if (Array.isArray(route.access) || (route.access && route.access !== 'client')) for (const s of scopesOf(route.access as never)) checked.add(s);
    if (route.alsoAccess) for (const s of scopesOf(route.alsoAccess)) checked.add(s);
    if (route.resource) for (const rule of Object.values(route.resource.access)) for (const s of scopesOf(rule)) checked.add(s);
  }
  assert.deepEqual(scopeCatalog(resources, config).map((e) => e.scope).sort(), [...checked].sort());
});
