import { authorization, type FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { Rng } from './prng.js';

const ACCEPT = [
  '*/*', 'application/json', 'application/hal+json', 'application/problem+json', 'text/html', 'text/plain', 'application/xml', 'image/png', '*/*;q=0', 'application/json;q=0, text/html;q=0',
  'application/json;q=abc', 'application/json;q=1.5', 'application/json;q=-1', 'text/*', '*/json', '*', '', ',', ';', 'application/json;charset=utf-16', 'text/html;level=1;q=0.5, */*;q=0.1',
  'APPLICATION/JSON', 'application/json, '.repeat(500), 'application/json;q=0.' + '0'.repeat(1000),
];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json; charset=utf-16', 'application/json; charset=utf-16le',
  'application/json; charset=iso-8859-1', 'application/json; charset=x-evil', 'application/json; charset=', 'application/json; charset="', 'application/json;;;', 'APPLICATION/JSON',
  'application/json; boundary=x', 'application/json, text/plain', 'application/hal+json', 'application/merge-patch+json', 'application/json-patch+json', 'application/problem+json',
  'application/vnd.api+json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', 'text/json', 'application/xml', '*/*', '', 'json', '/', 'application/',
  'application/json; charset=utf-8; charset=latin1', `application/json; x=${'y'.repeat(5000)}`,
];
const ETAGS = ['*', '"1"', 'W/"1"', '"2", "3"', 'W/"x", "y"', '"', '""', 'W/', 'x', ', , ,', '*, "1"', '"\\"', `"${'a'.repeat(8000)}"`, Array.from({ length: 500 }, (_, i) => `"${i}"`).join(', '), 'W/"1"W/"2"', 'w/"1"'];
const DATES = ['Mon, 23 Nov 2026 09:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'Sat, 31 Dec 1990 23:59:60 GMT', 'yesterday', '', '0', '-1', '1e400', 'Sun, 06 Nov 1994 08:49:37 GMT; length=1'];
const KEYS = ['', ' ', 'k', 'k'.repeat(255), 'k'.repeat(256), 'k'.repeat(10000), 'a b', ' lead', 'trail ', '\t', 'é', '\u00ff', '../../etc', '*', 'null', '0', '%00', 'a,b', '"quoted"'];

/** Requests whose headers are the attack: Accept, Content-Type and charsets, conditionals, Idempotency-Key. */
export function headerRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const target = rng.pick(['/characters', '/characters/1', '/characters/2', '/notes', '/ledgers', '/ledgers/1', '/messages/1', '/events', '/', '/openapi.json', '/docs', '/problems/not-found', '/api-keys', '/nothing']);
  const isItem = /\/\d+$/.test(target);
  const method = rng.pick(isItem ? ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE'] : ['GET', 'HEAD', 'POST']);
  const headers: Record<string, string | string[]> = { ...authorization(rng, ctx) };
  const set = (name: string, values: string[]) => {
    if (rng.chance(0.5)) headers[name] = rng.pick(values);
  };
  set('accept', ACCEPT);
  set('accept-charset', ['utf-8', 'iso-8859-1;q=0', '*;q=0', 'x-evil']);
  set('accept-encoding', ['gzip', 'br;q=1, *;q=0', 'identity;q=0', 'x']);
  set('if-match', ETAGS);
  set('if-none-match', ETAGS);
  set('if-modified-since', DATES);
  set('if-unmodified-since', DATES);
  set('idempotency-key', KEYS);
  set('x-forwarded-host', ['evil.example', '', 'a'.repeat(3000), 'host:99999', '[::1]']);
  set('x-forwarded-proto', ['https', 'gopher', '', 'https, http']);
  set('range', ['bytes=0-1', 'bytes=-1', 'items=0-100', 'x']);
  if (rng.chance(0.1)) headers['if-match'] = [rng.pick(ETAGS), rng.pick(ETAGS)];
  if (rng.chance(0.1)) headers['accept'] = [rng.pick(ACCEPT), rng.pick(ACCEPT)];
  let body: Buffer | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH' || rng.chance(0.05)) {
    headers['content-type'] = rng.pick(CONTENT_TYPES);
    body = Buffer.from(rng.pick(['{"name":"Header Test","amount":1,"text":"t"}', '{"name":"é","amount":2,"text":"t"}', '{}', '[]', '', '{"name":1}']));
  }
  return { origin: 'grammar: headers', method, path: target, headers, body };
}
