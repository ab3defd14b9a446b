import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Principal } from '../../auth/principal.js';
import { resolveConfig } from '../../config/load.js';
import { defineResources } from '../../core/resource.js';
import type { WebhookEndpoint } from '../../store/outbox.js';
import { CLOSED_AUDIENCE, hiddenFromOwner, ownerAccessOf, ownerAudience } from './owner-rights.js';

const resources = defineResources(resolveConfig({
  resources: {
    notes: { fields: { text: { type: 'string' } }, access: { read: 'owner', write: 'owner' } },
    tags: { fields: { name: { type: 'string' } }, access: { read: ['tags:read'], write: ['*'] } },
  },
}, { env: {} }));

const endpoint = (owner: string | null, scopes: string[] | null): WebhookEndpoint =>
  ({ id: 'ep_1', owner, ownerAccess: scopes && { kind: 'api-key', scopes, credential: 'h' } }) as unknown as WebhookEndpoint;

test('an owned endpoint may receive its owner\'s records and the resources its scopes read, nothing else', () => {
  const audience = ownerAudience(() => resources);
  const alice = endpoint('alice', ['webhooks:own', 'tags:read']);
  assert.equal(hiddenFromOwner(audience, alice, { resource: 'notes', owner: 'alice' }), undefined);
  assert.match(hiddenFromOwner(audience, alice, { resource: 'notes', owner: 'bob' }) ?? '', /may not read this event/);
  assert.equal(hiddenFromOwner(audience, alice, { resource: 'tags', owner: 'admin' }), undefined);
  assert.ok(hiddenFromOwner(audience, endpoint('bob', ['webhooks:own']), { resource: 'tags', owner: 'admin' }), 'without tags:read, no tags');
  assert.ok(hiddenFromOwner(audience, alice, { resource: 'webhook.mail', owner: null }), 'inbound webhook events are an admin\'s alone');
});

test('an operator\'s endpoint (no owner rights) receives everything; an unwired hub sends owned endpoints nothing', () => {
  const audience = ownerAudience(() => resources);
  assert.equal(hiddenFromOwner(audience, endpoint(null, null), { resource: 'notes', owner: 'bob' }), undefined);
  assert.ok(hiddenFromOwner(CLOSED_AUDIENCE, endpoint('alice', ['webhooks:own']), { resource: 'notes', owner: 'alice' }));
  assert.equal(hiddenFromOwner(CLOSED_AUDIENCE, endpoint(null, null), { resource: 'notes', owner: 'alice' }), undefined);
});

test('the rights stored name the credential a revocation deletes', () => {
  const base = { subject: 's', scopes: new Set(['webhooks:own', 'a']), rateKey: 'k' };
  assert.deepEqual(ownerAccessOf({ ...base, via: 'api-key', keyHash: 'abc' } as Principal), { kind: 'api-key', scopes: ['a', 'webhooks:own'], credential: 'abc' });
  assert.deepEqual(ownerAccessOf({ ...base, via: 'access-token', clientId: 'rwc_1', tokenId: 'j' } as Principal), { kind: 'oauth-client', scopes: ['a', 'webhooks:own'], credential: 'rwc_1' });
  assert.deepEqual(ownerAccessOf({ ...base, via: 'external' } as Principal), { kind: 'jwt', scopes: ['a', 'webhooks:own'] });
});
