import { authorization, type FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import { hostileValue } from './json-text.js';
import type { Rng } from './prng.js';

const LISTS: Record<string, string[]> = {
  '/characters': ['id', 'name', 'number', 'createdAt', 'updatedAt', 'version'],
  '/notes': ['id', 'text', 'pinned', 'rating', 'weight', 'due', 'tags', 'mood', 'character', 'code', 'createdAt'],
  '/messages': ['id', 'from', 'to', 'subject', 'receivedAt', 'attachments'],
  '/ledgers': ['id', 'amount', 'memo'],
  '/events': ['type'],
  '/webhooks/mail/events': ['status'],
  '/api-keys': [],
  '/oauth/clients': [],
};
const OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'startsWith', '', 'EQ', 'regex', 'like', 'eq][ne', 'constructor', '__proto__', ' eq', 'in]'];
const VALUES = ['', ' ', '0', '-0', '1', '-1', '1.5', '1e400', '9007199254740993', '99999999999999999999', 'true', 'false', 'null', 'abc', '%', '_', '%25', '\\', "'", '"', ',', ',,', 'a,b,c', ',1', '1,', 'é', '🦄', '\u0000', '\ud800', '2026-01-01T00:00:00Z', '1990-12-31T23:59:60Z', '2026-02-30', '+275760-09-13T00:00:00Z', 'x'.repeat(5000), Array.from({ length: 1000 }, (_, i) => i).join(',')];
const LIMITS = ['0', '-1', '1', '100', '101', '1000', '1e2', '1.5', '0x10', 'abc', '', ' 5', '99999999999999999999', '-0', 'NaN', 'Infinity', '1e400'];

/** encodeURIComponent, except that a lone surrogate becomes the bytes a careless encoder writes (invalid UTF-8). */
export function percentEncode(s: string): string {
  return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, (c, i: number) => (isPaired(s, i) ? c : '\uE001'))).replace(/%EE%80%81/g, '%ED%A0%80');
}

function isPaired(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c < 0xdc00 ? (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 : (s.charCodeAt(i - 1) & 0xfc00) === 0xd800;
}

/** A cursor the server never issued: every JSON type, wrong arity, another sort, not base64 at all. */
function forgedCursor(rng: Rng, sort: string): string {
  const keys = sort ? sort.split(',').length + 1 : 1;
  const values = Array.from({ length: rng.pick([keys, keys, keys + 1, 0]) }, () => hostileValue(rng));
  const body = rng.pick([
    `{"v":[${values.join(',')}],"s":${JSON.stringify(sort)}}`, `{"v":[${values.join(',')}],"s":${JSON.stringify(sort)},"b":1}`, `{"v":[${values.join(',')}],"s":"other"}`, `{"v":${hostileValue(rng)},"s":${JSON.stringify(sort)}}`,
    `{"v":[1],"s":${hostileValue(rng)}}`, hostileValue(rng), '{"__proto__":{"v":[1]},"s":""}', `{"v":[${values.join(',')}],"s":${JSON.stringify(sort)},"v":{}}`,
  ]);
  return rng.weighted<string>([
    [6, () => Buffer.from(body).toString('base64url')],
    [1, () => Buffer.from(body).toString('base64')],
    [1, () => rng.pick(['', '!!!', '====', 'null', '%00', 'a', 'eyJ', '\u00e9', 'x'.repeat(10000), Buffer.from(rng.bytes(40)).toString('base64url')])],
  ]);
}

/** List queries: every operator with good and bad values, sort/fields/limit extremes, forged cursors. */
export function queryRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const path = rng.pick(Object.keys(LISTS));
  const fields = LISTS[path]!;
  const field = () => (fields.length && rng.chance(0.85) ? rng.pick(fields) : rng.pick(['unknown', '', '_links', 'owner', '__proto__', 'a[b]', 'ID', 'x'.repeat(300)]));
  const params: Array<[string, string]> = [];
  let sort = '';
  for (let n = rng.int(1, 4); n > 0; n--) {
    rng.weighted<void>([
      [5, () => {
        const op = rng.pick(OPERATORS);
        params.push([op === '' && rng.chance(0.5) ? field() : `${field()}[${op}]`, rng.pick(VALUES)]);
      }],
      [2, () => {
        sort = rng.pick(['', '-', '--id', ',', `${field()},${field()}`, `-${field()}`, `${field()},-${field()},${field()}`, '+id', ' id', 'id,id', Array.from({ length: 200 }, () => field()).join(',')]);
        params.push(['sort', sort]);
      }],
      [2, () => params.push(['fields', rng.pick(['', ',', `${field()},${field()}`, 'id,_links', Array.from({ length: 300 }, () => field()).join(',')])])],
      [2, () => params.push(['limit', rng.pick(LIMITS)])],
      [3, () => params.push(['cursor', forgedCursor(rng, sort)])],
      [1, () => params.push(['total', rng.pick(['true', 'false', '1', '', 'yes', 'TRUE'])])],
      [1, () => params.push([rng.pick(['__proto__[x]', 'constructor[prototype][x]', 'a[b][c]', '[]', 'limit[]', 'sort[]', '', '&', '='.repeat(3)]), rng.pick(VALUES)])],
    ]);
  }
  // Repeat a parameter now and then: `limit=1&limit=2` must be refused cleanly, filters AND together.
  if (rng.chance(0.15) && params.length) params.push(rng.pick(params));
  const encode = (s: string) => (rng.chance(0.9) ? percentEncode(s) : s.replace(/[ #&=\u0000-\u001f\u007f-\uffff]/g, (c) => percentEncode(c)));
  const qs = params.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  return { origin: `grammar: query ${path}`, method: rng.pick(['GET', 'GET', 'GET', 'HEAD']), path: `${path}?${qs}${rng.chance(0.05) ? '%' : ''}`, headers: authorization(rng, ctx) };
}
