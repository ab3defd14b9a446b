import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';
import type { FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import { INVALID_UTF8, toBytes, type JsonText } from './json-text.js';
import type { Rng } from './prng.js';

/** Lone halves of surrogate pairs, as JSON escapes (a high one alone, a low one alone, pairs in the wrong order). */
const LONE = ['\\ud800', '\\udbff', '\\udc00', '\\udfff', 'x\\ud800y', '\\ud83d', '\\ude00\\ud83d', '\\ud800\\ud800', '\\uD834 ', '\\ud83d\\u0041', '😀\\udc00'];

/** `name` written with every character escaped: the same member name to a parser, other text to a byte compare. */
const escaped = (name: string) => [...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

/** An object naming one member twice (the same text, or once escaped), with other members around it. */
function repeatedName(rng: Rng): JsonText {
  const name = rng.pick(['a', 'name', '_links', '', 'id', '__x', 'ünï', '😀', 'a/b~c']);
  const again = rng.chance(0.3) ? escaped(name) : name;
  const other = rng.pick(['"m":2,', '', '"z":[1,{"y":null}],']);
  return `{"${name}":${rng.pick(['1', '"v"', '{}', 'null'])},${other}"${again}":${rng.pick(['2', '"w"', '[]'])}}`;
}

/** JSON text holding one thing I-JSON forbids (a lone surrogate in a value or a name, a repeated name), `depth` containers down. */
function defective(rng: Rng, depth: number): JsonText {
  if (depth === 0) {
    return rng.weighted<JsonText>([
      [3, () => `"${rng.pick(LONE)}"`],
      [2, () => `{"${rng.pick(LONE)}":1}`],
      [3, () => repeatedName(rng)],
      [1, () => `"caf${INVALID_UTF8}"`],
    ]);
  }
  return rng.pick([
    () => `[1,"ok",${defective(rng, depth - 1)}]`,
    () => `{"k${depth}":${defective(rng, depth - 1)},"z":"\\ud83d\\ude00"}`,
    () => `[{"a":[${defective(rng, depth - 1)}]}]`,
  ])();
}

interface Target {
  method: string;
  path: string;
  type: string;
  as: 'admin' | 'alice';
  /** The body around the defect: a valid document for the route but for what `defect` holds. */
  wrap: (defect: JsonText, rng: Rng) => JsonText;
}

const json = 'application/json';
const field = (rest: string) => (defect: JsonText, rng: Rng) => `{${rest},"${rng.pick(['extra', 'tags', 'to', 'name'])}":${defect}}`;

function targets(ctx: FuzzContext): Target[] {
  const character = ctx.records['/characters']?.[0] ?? '/characters/1';
  const note = ctx.records['/notes']?.[0] ?? '/notes/x';
  return [
    { method: 'POST', path: '/characters', type: json, as: 'admin', wrap: field('"name":"u1"') },
    { method: 'PUT', path: character, type: json, as: 'admin', wrap: field('"name":"u2","number":"1"') },
    { method: 'PUT', path: '/characters/987654', type: json, as: 'admin', wrap: (d) => d },
    { method: 'PATCH', path: character, type: 'application/merge-patch+json', as: 'admin', wrap: field('"number":"2"') },
    { method: 'PATCH', path: character, type: 'application/json-patch+json', as: 'admin', wrap: (d, rng) => rng.pick([`[{"op":"add","path":"/number","value":${d}}]`, `[{"op":"test","path":"/name","value":"x"},${d}]`]) },
    { method: 'PATCH', path: character, type: 'application/json-patch+json', as: 'admin', wrap: (_d, rng) => rng.pick([`[{"op":"replace","path":"/${rng.pick(LONE)}","value":"x"}]`, '[{"op":"remove","path":"/number","op":"add","value":"9"}]', `[{"op":"add","path":"/number","value":"${rng.pick(LONE)}"}]`]) },
    { method: 'POST', path: '/notes', type: json, as: 'alice', wrap: field('"text":"t","tags":{"a":[1]}') },
    { method: 'PATCH', path: note, type: 'application/merge-patch+json', as: 'alice', wrap: field('"text":"t2"') },
    { method: 'POST', path: '/messages', type: json, as: 'admin', wrap: field('"subject":"s","text":"t"') },
    { method: 'PUT', path: '/ledgers/1', type: json, as: 'admin', wrap: field('"amount":1') },
    { method: 'POST', path: '/webhook-endpoints', type: json, as: 'admin', wrap: field('"url":"https://example.com/hook"') },
    { method: 'POST', path: '/api-keys', type: json, as: 'admin', wrap: field('"name":"k","scopes":[]') },
    { method: 'POST', path: '/oauth/clients', type: json, as: 'admin', wrap: field('"name":"c","scopes":[]') },
  ];
}

/**
 * Bodies whose only fault is what I-JSON (RFC 7493) forbids: a lone surrogate escape in a value or
 * a member name, or a member name repeated in one object, at any depth, in documents and patches
 * of every JSON route, sent with credentials that may write there. Each must be 400 malformed-json
 * (not stored with U+FFFD, not a 422 from a later check). Correctly signed webhook deliveries holding
 * the same are payload problems: refused (Postmark's 403), kept in the inbox, never a 5xx.
 */
export function unicodeRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const defect = defective(rng, rng.pick([0, 0, 1, 2, 3, 8]));
  if (rng.chance(0.2)) {
    const payload = `{"MessageID":"m${rng.int(0, 1e9)}","From":"a@example.com","Subject":"s","TextBody":${defect}}`;
    const signed = sampleRequest('mail', ctx.sources.mail!, ctx.base, { body: toBytes(payload, rng), contentType: json });
    return { origin: 'grammar: unicode webhook mail', method: 'POST', path: signed.url.slice(ctx.base.length), headers: signed.headers, body: signed.body, mayChangeWhenRejected: true, expect: { status: 403, problem: 'webhook-rejected' } };
  }
  const target = rng.pick(targets(ctx));
  const token = target.as === 'admin' ? ctx.credentials.admin : ctx.credentials.alice;
  const headers = { authorization: `Bearer ${token}`, 'content-type': target.type, ...(target.path.startsWith('/ledgers') ? { 'if-match': '*' } : {}) };
  return { origin: `grammar: unicode ${target.method} ${target.path.split('/').length > 2 ? target.path.replace(/\/[^/]+$/, '/{id}') : target.path}`, method: target.method, path: target.path, headers, body: toBytes(target.wrap(defect, rng), rng), expect: { status: 400, problem: 'malformed-json' } };
}
