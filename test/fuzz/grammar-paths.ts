import { authorization, type FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { Rng } from './prng.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const COLLECTIONS = ['/characters', '/messages', '/notes', '/ledgers', '/events', '/api-keys', '/oauth/clients', '/webhooks/mail/events', '/webhooks/sms/events', '/problems', '/nothing'];
const IDS = [
  '0', '-1', '01', '1.0', '1e3', '0x1', '+1', ' 1', '1 ', '9007199254740991', '9007199254740993', '18446744073709551616', '9'.repeat(400), '%31', '%2e%2e', '..', '.', '%2e', '%00', '%ff', '%', '%zz',
  '%C0%AE', '%E2%80%AE', '%F0%9F%A6%84', '１', '١', 'NaN', 'Infinity', 'null', 'undefined', '__proto__', 'constructor', 'toString', 'x'.repeat(5000), '1;a=b', '1%3Bx', '1%2F2', '1%252F2',
  '0190a8c2-1b7e-7c3d-9f00-000000000000', '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '0190a8c2-1b7e-7c3d-9f00', '{id}', ':id', '*', "1' OR '1'='1", 'evt_', 'whd_x', 'key_x', 'rwc_x',
];

/** Paths built to confuse a router: odd ids, encodings, dot segments, doubled slashes, case, length. */
export function pathRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const collection = rng.pick(COLLECTIONS);
  const id = rng.pick(IDS);
  const path = rng.pick([
    `${collection}/${id}`, `${collection}/${id}/`, `${collection}/`, `/${collection}`, `${collection}//${id}`, `${collection}/1/../2`, `${collection}/./1`, `/${collection.slice(1).toUpperCase()}/1`,
    `${collection}/${id}/extra`, `${collection}/1/attempts/${id}`, `/webhooks/mail/events/${id}/attempts/${id}`, `/webhooks/${id}`, `/webhooks/${id}/events`, `/problems/${id}`, `/events/${id}`,
    `${collection}%2F1`, `/..${collection}`, `/%2e%2e${collection}`, `${collection}/1#frag`, `${collection}?`, `${collection}??limit=1`, `${collection}/1?;`, `/${'a/'.repeat(rng.pick([50, 2000]))}`,
  ]);
  return { origin: 'grammar: path', method: rng.pick(METHODS), path, headers: { ...authorization(rng, ctx), ...(rng.chance(0.3) ? { 'content-type': 'application/json' } : {}) }, body: rng.chance(0.3) ? Buffer.from('{"name":"p"}') : undefined };
}
