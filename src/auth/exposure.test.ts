import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../config/load.js';
import { defineResources } from '../core/resource.js';
import { describeAccess, exposureWarning, isLoopback, openWrites } from './exposure.js';

const resourcesOf = (resources: Record<string, unknown>) => defineResources(resolveConfig({ resources }, { env: {} }));

test('a resource without an access block is readable by all and writable with its :write scope', () => {
  const [notes] = resourcesOf({ notes: { fields: { text: { type: 'string' } } } });
  assert.deepEqual(notes.access, { read: 'public', create: ['notes:write'], update: ['notes:write'], delete: ['notes:write'] });
  assert.equal(describeAccess(notes), 'notes: read public · write needs scope notes:write');
  // An access block that names only some operations gets the same defaults for the others.
  const [half] = resourcesOf({ half: { fields: {}, access: { read: ['half:read'] } } });
  assert.deepEqual(half.access, { read: ['half:read'], create: ['half:write'], update: ['half:write'], delete: ['half:write'] });
});

test('the banner line names each operation when their rules differ', () => {
  const [a, b, c] = resourcesOf({
    a: { fields: {}, access: { read: 'owner', write: 'owner' } },
    b: { fields: {}, access: { write: 'public', delete: 'b:admin b:delete' } },
    c: { fields: {}, access: { read: 'public', write: 'public' } },
  });
  assert.equal(describeAccess(a), 'a: read needs a token (own records only) · write needs a token (own records only)');
  assert.equal(describeAccess(b), 'b: read public · create public · update public · delete needs scopes b:admin b:delete');
  assert.equal(describeAccess(c), 'c: read public · write public');
});

test('loopback hosts are this machine only; wildcards, LAN addresses and names are not', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) assert.ok(isLoopback(host), host);
  for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', 'fe80::1', 'example.com', '']) assert.ok(!isLoopback(host), host);
});

test('serve warns beyond loopback only while something is writable without a token', () => {
  const secure = resourcesOf({ notes: { fields: {} }, mine: { fields: {}, access: { write: 'owner' } } });
  assert.deepEqual(openWrites(secure), []);
  assert.equal(exposureWarning('0.0.0.0', secure), undefined);

  const open = resourcesOf({ notes: { fields: {}, access: { write: 'public' } }, drafts: { fields: {}, access: { create: 'public' } } });
  assert.deepEqual(openWrites(open), ['notes (write: public)', 'drafts (create: public)']);
  assert.equal(exposureWarning('127.0.0.1', open), undefined, 'loopback: only this machine can write');
  const warning = exposureWarning('0.0.0.0', open);
  assert.match(warning!, /^warning: listening on 0\.0\.0\.0, reachable beyond this machine, while anyone can write without a token: notes \(write: public\), drafts \(create: public\)\. /);
  assert.match(warning!, /--host 127\.0\.0\.1$/);
  assert.ok(!warning!.includes('\n'), 'one line');

  const hooks = { open: { provider: 'generic', verify: 'none' as const }, signed: { provider: 'github', verify: { secret: 's' } } };
  assert.match(exposureWarning('::', secure, hooks)!, /without a token: webhooks\.sources\.open \(verify: none\)\./);
});
