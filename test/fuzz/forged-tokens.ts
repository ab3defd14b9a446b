import { createHmac, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { SIGNING_KEY_KIND } from '../../src/auth/keyring.js';
import type { Store } from '../../src/store/store.js';
import type { Rng } from './prng.js';

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64url');

interface ServerKey {
  kid: string;
  alg: string;
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
}

/** The server's signing key for a token's `kid`, read from its database (the runner can forge real signatures). */
async function serverKey(store: Store, token: string): Promise<ServerKey> {
  const { kid } = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'));
  const doc = await store.getDocument(SIGNING_KEY_KIND, kid);
  if (!doc) throw new Error(`no signing key ${kid} in the store`);
  const privateJwk = doc.privateJwk as Record<string, unknown>;
  const { d: _d, ...publicJwk } = privateJwk;
  return { kid, alg: String(doc.alg), privateKey: createPrivateKey({ key: privateJwk as any, format: 'jwk' }), publicJwk };
}

function signWith(key: KeyObject, alg: string, input: string): Buffer {
  return sign(alg === 'ES256' ? 'sha256' : null, Buffer.from(input), alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
}

/**
 * Bearer tokens an attacker would try, made once per run from a genuine access token: genuinely
 * signed tokens with hostile claims and headers, `alg: none`, HS256 keyed with the public key
 * (algorithm confusion), an embedded attacker key, foreign `jku`/`x5u`, and broken structure.
 */
export async function forgedTokens(store: Store, realJwt: string, rng: Rng): Promise<string[]> {
  const key = await serverKey(store, realJwt);
  const claims = JSON.parse(Buffer.from(realJwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  const header = { alg: key.alg, kid: key.kid, typ: 'at+jwt' };
  const claimText = (overrides: Record<string, string>) => {
    const entries = Object.entries(claims).filter(([k]) => !Object.hasOwn(overrides, k)).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    return `{${[...entries, ...Object.entries(overrides).map(([k, v]) => `${JSON.stringify(k)}:${v}`)].join(',')}}`;
  };
  const genuine = (payload: string, h: Record<string, unknown> = header) => {
    const input = `${b64(JSON.stringify(h))}.${b64(payload)}`;
    return `${input}.${b64(signWith(key.privateKey, key.alg, input))}`;
  };
  const now = Math.floor(Date.now() / 1000);
  const hostileClaims: Array<Record<string, string>> = [
    { exp: '1e400' }, { exp: '-1' }, { exp: '"tomorrow"' }, { exp: '9007199254740993' }, { exp: '1e21' }, { exp: `${now + 60}.5` }, { exp: 'null' },
    { exp: '{}' }, { iat: '1e400' }, { iat: String(now + 86400 * 365) }, { nbf: String(now + 3600) }, { nbf: '"x"' }, { scope: '["*"]' },
    { scope: '123' }, { scope: '"*"' }, { scope: '""' }, { scope: `"${'a '.repeat(5000)}"` }, { sub: '{}' }, { sub: '""' }, { client_id: 'null' },
    { client_id: '"rwc_unknown"' }, { aud: '[]' }, { aud: '{"x":1}' }, { iss: '"http://evil.example"' }, { jti: `"${'j'.repeat(10000)}"` },
    { jti: '1' }, { ['__proto__']: '{"scope":"*"}' }, { constructor: '{"prototype":{"admin":true}}' }, { exp: `${now + 60}, "exp": -1` },
  ];
  const tokens: string[] = hostileClaims.map((o) => genuine(claimText(o)));
  tokens.push(
    genuine('not json'), genuine('[]'), genuine('null'), genuine('{}'), genuine(claimText({}), { ...header, typ: 'JWT' }), genuine(claimText({}), { alg: key.alg, kid: key.kid }),
    genuine(claimText({}), { ...header, crit: ['exp'] }), genuine(claimText({}), { ...header, crit: ['x-unknown'], 'x-unknown': 1 }), genuine(claimText({}), { ...header, b64: false, crit: ['b64'] }),
    genuine(claimText({}), { ...header, kid: 'unknown' }), genuine(claimText({}), { ...header, kid: '../../../../etc/passwd' }), genuine(claimText({}), { ...header, kid: 'k'.repeat(5000) }),
    genuine(claimText({}), { ...header, kid: 7 }), genuine(claimText({}), { ...header, zip: 'DEF' }),
  );
  // alg: none, in the spellings libraries have been fooled by.
  for (const alg of ['none', 'None', 'NONE', 'nOnE']) tokens.push(`${b64(JSON.stringify({ ...header, alg }))}.${b64(claimText({}))}.`);
  // Algorithm confusion: HMAC keyed with what the JWKS publishes.
  const payload = b64(claimText({}));
  for (const alg of ['HS256', 'HS384', 'HS512']) {
    const input = `${b64(JSON.stringify({ ...header, alg }))}.${payload}`;
    for (const secret of [JSON.stringify(key.publicJwk), String(key.publicJwk.x), Buffer.from(String(key.publicJwk.x), 'base64url').toString('latin1'), '']) {
      tokens.push(`${input}.${b64(createHmac(alg.replace('HS', 'sha'), secret).update(input).digest())}`);
    }
  }
  // The attacker's own key, embedded or fetched from the attacker's URL.
  const attacker = generateKeyPairSync('ed25519');
  const attackerJwk = attacker.publicKey.export({ format: 'jwk' });
  for (const extra of [{ jwk: attackerJwk }, { jku: 'http://127.0.0.1:9/jwks.json' }, { x5u: 'http://127.0.0.1:9/cert.pem' }, { kid: 'attacker' }]) {
    const input = `${b64(JSON.stringify({ alg: 'EdDSA', typ: 'at+jwt', ...extra }))}.${payload}`;
    tokens.push(`${input}.${b64(sign(null, Buffer.from(input), attacker.privateKey))}`);
  }
  // Broken structure: wrong segment counts, padding, foreign alphabets, a signature cut short.
  const [h, p, s] = realJwt.split('.') as [string, string, string];
  tokens.push(
    `${h}.${p}`, `${h}.${p}.${s}.${s}`, `..`, `${h}..${s}`, `${h}.${p}.${s.slice(0, -2)}`, `${h}=.${p}.${s}`, `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}==`,
    `${h}.${p}.${b64(rng.bytes(64))}`, `${h}.${b64(rng.bytes(200))}.${s}`, `${b64('{')}.${p}.${s}`, `${h}.${p}.${s}`.repeat(3), 'x'.repeat(20000),
  );
  return tokens;
}
