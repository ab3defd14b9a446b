import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConfig } from '../config/load.js';
import { defineResources } from '../core/resource.js';
import { readView, writeMayHideRecord } from './access.js';
import type { Principal } from './principal.js';

const field = { text: { type: 'string' } };
const resources = new Map(
  defineResources(
    resolveConfig(
      {
        resources: {
          open: { fields: field, access: { read: 'public', write: ['open:write'] } },
          vaults: { fields: field, access: { read: ['vaults:read'], write: ['vaults:write'] } },
          same: { fields: field, access: { read: ['s:rw'], write: ['s:rw'] } },
          notes: { fields: field, access: { read: 'owner', write: 'owner' } },
          shared: { fields: field, access: { read: 'owner', create: 'owner', update: ['shared:edit'], delete: 'owner' } },
          drop: { fields: field, access: { read: 'owner', write: 'public' } },
        },
      },
      { env: {} },
    ),
  ).map((r) => [r.name, r]),
);
const r = (name: string) => resources.get(name)!;
const who = (subject: string, ...scopes: string[]): Principal => ({ subject, scopes: new Set(scopes), via: 'api-key', rateKey: subject }) as Principal;

test('readView: every record, none, or one subject’s', () => {
  assert.equal(readView(r('open'), undefined), true);
  assert.equal(readView(r('vaults'), who('a', 'vaults:write')), false);
  assert.equal(readView(r('vaults'), who('a', 'vaults:read')), true);
  assert.equal(readView(r('notes'), who('a')), 'a');
  assert.equal(readView(r('notes'), who('root', '*')), true);
  assert.equal(readView(r('notes'), undefined), false);
});

test('writeMayHideRecord: only where passing the write rule does not imply passing the read rule', () => {
  assert.equal(writeMayHideRecord(r('open'), 'patch'), false, 'public reads');
  assert.equal(writeMayHideRecord(r('vaults'), 'create'), true, 'vaults:write lacks vaults:read');
  assert.equal(writeMayHideRecord(r('same'), 'patch'), false, 'the write scope is the read scope');
  assert.equal(writeMayHideRecord(r('notes'), 'replace'), false, 'owners write and read their own');
  assert.equal(writeMayHideRecord(r('shared'), 'create'), false, 'a created record is the writer’s');
  assert.equal(writeMayHideRecord(r('shared'), 'patch'), true, 'an editor may patch another subject’s record');
  assert.equal(writeMayHideRecord(r('shared'), 'delete'), false);
  assert.equal(writeMayHideRecord(r('drop'), 'create'), true, 'anonymous writers read nothing');
});
