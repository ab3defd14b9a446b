import { sign } from '@octokit/webhooks-methods';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { signGithub, verifyGithub } from './github.js';

const vectors = JSON.parse(readFileSync(new URL('../../../../test/fixtures/webhook-signatures.json', import.meta.url), 'utf8'));
const v = vectors['github-sha256'];
const secret = 'gh-secret';

const input = (body: string, headers: Record<string, string>) => ({ rawBody: Buffer.from(body), headers, url: 'https://x/webhooks/gh' });

describe('GitHub verifier', () => {
  it('accepts the published vector', () => {
    const r = verifyGithub(input(v.payload, { 'x-hub-signature-256': v.header, 'x-github-delivery': 'd-1' }), { secret: v.secret });
    assert.deepEqual(r, { ok: true, eventId: 'd-1' });
    assert.equal(signGithub(v.secret, v.payload), v.header);
  });

  it('accepts a signature made by @octokit/webhooks-methods, with an upper-case hex too', async () => {
    const body = '{"action":"opened","number":1}';
    const header = await sign(secret, body);
    assert.equal(verifyGithub(input(body, { 'x-hub-signature-256': header }), { secret }).ok, true);
    const upper = 'sha256=' + header.slice(7).toUpperCase();
    assert.equal(verifyGithub(input(body, { 'x-hub-signature-256': upper }), { secret }).ok, true);
  });

  it('verifies the raw bytes, not re-serialized JSON', async () => {
    const body = '{ "spaced" :  true }';
    const header = await sign(secret, body);
    assert.equal(verifyGithub(input(body, { 'x-hub-signature-256': header }), { secret }).ok, true);
    const r = verifyGithub(input(JSON.stringify(JSON.parse(body)), { 'x-hub-signature-256': header }), { secret });
    assert.equal(!r.ok && r.code, 'bad_signature');
  });

  it('rejects a tampered body and the wrong secret', async () => {
    const header = await sign(secret, '{"a":1}');
    const tampered = verifyGithub(input('{"a":2}', { 'x-hub-signature-256': header }), { secret });
    const wrong = verifyGithub(input('{"a":1}', { 'x-hub-signature-256': header }), { secret: 'other' });
    assert.equal(!tampered.ok && tampered.code, 'bad_signature');
    assert.equal(!wrong.ok && wrong.code, 'bad_signature');
  });

  it('rejects missing and malformed headers', () => {
    const missing = verifyGithub(input('{}', {}), { secret });
    const sha1 = verifyGithub(input('{}', { 'x-hub-signature-256': 'sha1=abcdef' }), { secret });
    assert.equal(!missing.ok && missing.code, 'missing_signature');
    assert.equal(!sha1.ok && sha1.code, 'malformed');
  });
});
