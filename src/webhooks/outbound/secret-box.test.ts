import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { AesSecretBox } from './secret-box.js';
import { endpointSecretError, generateEndpointSecret } from './secrets.js';
import type { EndpointSecret } from './types.js';

const secrets: EndpointSecret[] = [
  { secret: generateEndpointSecret(), createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2026-01-02T00:00:00.000Z' },
  { secret: generateEndpointSecret(), createdAt: '2026-01-01T12:00:00.000Z' },
];

describe('endpoint secrets', () => {
  it('generates whsec_ secrets of 32 bytes that pass validation and load in the standardwebhooks library', () => {
    const s = generateEndpointSecret();
    assert.match(s, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(s.slice(6), 'base64').length, 32);
    assert.equal(endpointSecretError(s), undefined);
    assert.doesNotThrow(() => new Webhook(s));
    assert.notEqual(generateEndpointSecret(), s);
  });

  it('explains why a supplied secret is unusable', () => {
    assert.equal(endpointSecretError('whsec_' + Buffer.alloc(24, 1).toString('base64')), undefined);
    assert.equal(endpointSecretError('whsec_' + Buffer.alloc(64, 1).toString('base64')), undefined);
    assert.match(endpointSecretError('sk_live_abc')!, /must start with whsec_/);
    assert.match(endpointSecretError('whsec_not base64!')!, /standard base64/);
    assert.match(endpointSecretError('whsec_' + Buffer.alloc(16).toString('base64'))!, /24 to 64 random bytes; this one encodes 16/);
    assert.match(endpointSecretError('whsec_' + Buffer.alloc(65).toString('base64'))!, /encodes 65/);
  });
});

describe('AesSecretBox', () => {
  const key = 'a configured secret key of at least 32 chars';

  it('seals to versioned text and opens it again', () => {
    const box = new AesSecretBox(key);
    const sealed = box.seal(secrets);
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes(secrets[0]!.secret.slice(6)));
    assert.notEqual(box.seal(secrets), sealed, 'a fresh IV each time');
    assert.deepEqual(new AesSecretBox(key).open(sealed), secrets);
  });

  it('refuses to open with another key', () => {
    const sealed = new AesSecretBox(key).seal(secrets);
    assert.throws(() => new AesSecretBox(key + '!').open(sealed), /different secret key, or altered text/);
  });

  it('refuses altered or malformed text', () => {
    const box = new AesSecretBox(key);
    const sealed = box.seal(secrets);
    const [v, iv, ct] = sealed.split('.') as [string, string, string];
    const bytes = Buffer.from(ct, 'base64url');
    bytes[0]! ^= 1;
    assert.throws(() => box.open(`${v}.${iv}.${bytes.toString('base64url')}`), /altered/);
    const otherIv = Buffer.from(iv, 'base64url');
    otherIv[0]! ^= 1;
    assert.throws(() => box.open(`${v}.${otherIv.toString('base64url')}.${ct}`), /altered/);
    assert.throws(() => box.open(`v2.${iv}.${ct}`), /known version/);
    assert.throws(() => box.open('v1.abc'), /known version/);
    assert.throws(() => box.open(`v1.${iv}.AAAA`), /truncated/);
  });
});
