import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineResources } from '../core/resource.js';
import { editDistance, scopeCatalog, unknownScopes } from './scope-catalog.js';

const catalog = scopeCatalog(defineResources({ resources: { characters: { fields: { name: { type: 'string' } }, access: { read: 'public', write: ['characters:write'] } } } } as never));

test('edit distance counts single-character edits', () => {
  assert.equal(editDistance('charcters:write', 'characters:write'), 1);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('same', 'same'), 0);
});

test('unknown scopes get the closest known scope when it is a small typo away, and none otherwise', () => {
  assert.deepEqual(unknownScopes(['charcters:write', 'characters:write', 'event:read', 'Webhooks:Write', 'billing:admin', '*'], catalog), [
    { scope: 'charcters:write', suggestion: 'characters:write' },
    { scope: 'event:read', suggestion: 'events:read' },
    { scope: 'Webhooks:Write', suggestion: 'webhooks:write' },
    { scope: 'billing:admin' },
  ]);
  assert.deepEqual(unknownScopes(['x'], catalog), [{ scope: 'x' }], 'a short scope is never "close" to a long one');
});
