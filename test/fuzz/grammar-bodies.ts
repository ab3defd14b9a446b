import { deflateSync, gzipSync } from 'node:zlib';
import { authorization, type FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import { deepNesting, hostileObject, hostileValue, toBytes } from './json-text.js';
import type { Rng } from './prng.js';

const TARGETS: Array<[string, string]> = [
  ['POST', '/characters'], ['PUT', '/characters/3'], ['PUT', '/characters/900'], ['PATCH', '/characters/2'], ['POST', '/notes'], ['POST', '/ledgers'], ['PUT', '/ledgers/1'], ['PATCH', '/ledgers/1'],
  ['POST', '/messages'], ['POST', '/api-keys'], ['POST', '/oauth/clients'], ['POST', '/oauth/token'], ['POST', '/oauth/introspect'], ['POST', '/oauth/revoke'], ['POST', '/webhooks/mail/events/x/attempts'],
  ['GET', '/characters'], ['DELETE', '/characters/5'],
];

/** A JSON document in another encoding than UTF-8, or compressed, or cut short. */
function encoded(rng: Rng, json: string): { body: Buffer; headers: Record<string, string> } {
  const utf16 = (bom: boolean) => Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(json, 'utf16le')]);
  return rng.pick([
    () => ({ body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json)]), headers: {} }),
    () => ({ body: utf16(true), headers: { 'content-type': 'application/json; charset=utf-16' } }),
    () => ({ body: utf16(false), headers: {} }),
    () => ({ body: Buffer.from(json, 'latin1'), headers: { 'content-type': 'application/json; charset=iso-8859-1' } }),
    () => ({ body: gzipSync(json), headers: { 'content-encoding': 'gzip' } }),
    () => ({ body: deflateSync(json), headers: { 'content-encoding': rng.pick(['deflate', 'br', 'x-evil', 'identity', 'gzip, gzip']) } }),
    () => ({ body: Buffer.from(json).subarray(0, rng.int(0, json.length)), headers: {} }),
    () => ({ body: Buffer.from(json.replace(/"/g, "'")), headers: {} }),
    () => ({ body: Buffer.concat([Buffer.from(json), Buffer.from([0])]), headers: {} }),
  ])();
}

/** Bodies that test the parsers: other encodings, compression, truncation, wrong types, giant and deep documents. */
export function bodyRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const [method, path] = rng.pick(TARGETS);
  const headers: Record<string, string> = { ...authorization(rng, ctx), 'content-type': method === 'PATCH' ? rng.pick(['application/merge-patch+json', 'application/json-patch+json']) : 'application/json' };
  const doc = rng.weighted<string>([
    [3, () => hostileObject(rng)],
    [2, () => hostileValue(rng)],
    [2, () => deepNesting(rng)],
    [1, () => `{"name":"n${rng.int(0, 1e6)}","text":"t","amount":1}`],
    [1, () => `[{"op":"${rng.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', '_get', 'x'])}","path":"${rng.pick(['/name', '/__proto__/x', '/constructor/prototype/x', '', '/', '/-', '/0', '/name/0', '~', '/a~2b', '/_links'])}","from":"${rng.pick(['/name', '/number', '/__proto__', ''])}","value":${hostileValue(rng)}}]`],
    [1, () => `{"name":"${'n'.repeat(rng.pick([1_100_000, 600_000]))}"}`],
  ]);
  let body = toBytes(doc, rng);
  if (rng.chance(0.35)) {
    const e = encoded(rng, body.toString('utf8'));
    body = e.body;
    Object.assign(headers, e.headers);
  }
  if (rng.chance(0.15)) headers['content-type'] = rng.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=----x', 'application/xml', 'application/octet-stream', 'application/json-seq']);
  return { origin: `grammar: body ${method} ${path}`, method, path, headers, body };
}
