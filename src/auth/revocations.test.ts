import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore } from '../store/open.js';
import { engines } from '../test-support/engines.js';
import { AccessTokens } from './access-tokens.js';
import { ApiKeys } from './api-keys.js';
import { Keyring } from './keyring.js';
import { OAuthClients } from './oauth-clients.js';
import type { Principal } from './principal.js';
import { Revocations } from './revocations.js';
import { sha256 } from './secrets.js';
import { TokenCache } from './token-cache.js';

for (const engine of engines) {
  describe(`Revocations.findRevoked (${engine.name})`, () => {
    test('tells, for many principals at once, exactly which credentials no longer stand', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        await store.sync([], { allowDestructive: false });
        const keys = new ApiKeys(store);
        const clients = new OAuthClients(store);
        const tokens = new AccessTokens(store, new Keyring(store, { algorithm: 'EdDSA', lifetimeSeconds: 86400, retainSeconds: 3600 }), clients, 300);
        const cache = new TokenCache(60);
        const revocations = new Revocations(store, cache);
        // More keys than one query asks about, so the batches are split and joined again.
        const made = await Promise.all(Array.from({ length: 520 }, (_, i) => keys.create({ name: `k${i}`, scopes: [] })));
        const keyPrincipal = ({ key, info }: (typeof made)[number]): Principal => ({ subject: info.subject, scopes: new Set(), via: 'api-key', tokenId: info.id, keyHash: sha256(key), rateKey: info.id });
        const principals = made.map(keyPrincipal);
        const gone = [made[3]!, made[511]!];
        for (const k of gone) assert.equal(await keys.revoke(k.info.id), true);

        const kept = (await clients.create({ name: 'kept', scopes: [] })).info.clientId;
        const dropped = (await clients.create({ name: 'dropped', scopes: [] })).info.clientId;
        const exp = Math.floor(Date.now() / 1000) + 300;
        const tokenPrincipal = (clientId: string, jti: string): Principal => ({ subject: clientId, scopes: new Set(), via: 'access-token', clientId, tokenId: jti, expiresAt: exp, rateKey: clientId });
        const live = tokenPrincipal(kept, 'jti-live');
        const revoked = tokenPrincipal(kept, 'jti-revoked');
        const orphan = tokenPrincipal(dropped, 'jti-orphan');
        await tokens.revoke({ jti: 'jti-revoked', exp, client_id: kept });
        assert.equal(await clients.delete(dropped), true);
        const external: Principal = { subject: 'https://idp.example#u', scopes: new Set(), via: 'external', tokenId: 'x', expiresAt: exp, rateKey: 'ext' };

        cache.set('cached', live);
        const found = await revocations.findRevoked([...principals, live, revoked, orphan, external]);
        assert.deepEqual(
          [...found].map(([p, why]) => [p.tokenId, why]).sort(),
          [
            [gone[0]!.info.id, 'the API key was revoked or expired'],
            [gone[1]!.info.id, 'the API key was revoked or expired'],
            ['jti-orphan', 'the OAuth client the access token was issued to was deleted'],
            ['jti-revoked', 'the access token was revoked'],
          ].sort(),
        );
        assert.equal(cache.size, 0, 'finding a revoked credential empties the verified-token cache');
        assert.equal(revocations.revocable(external), false, 'an external issuer\'s token can only expire');
        assert.equal((await revocations.findRevoked([live, ...principals.slice(0, 3)])).size, 0);
      } finally {
        await store.close();
      }
    });
  });
}
