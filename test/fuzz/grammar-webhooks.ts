import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';
import type { FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import { deepNesting, hostileObject, hostileValue, toBytes } from './json-text.js';
import type { Rng } from './prng.js';

const SIGNATURE_HEADERS = ['authorization', 'x-twilio-signature', 'webhook-signature', 'webhook-id', 'webhook-timestamp', 'x-hub-signature-256', 'stripe-signature', 'x-github-event', 'x-github-delivery'];
const GARBAGE_SIGNATURES = [
  '', ' ', 'x', 'v1,', 'v1,AAAA', 'v1,' + 'A'.repeat(44), 'v1a,x v1,y', 't=1,v1=00', 't=abc,v1=', `t=${'9'.repeat(30)},v1=ab`, 't=1e400,v1=ab', 'sha256=', 'sha256=zz', 'sha1=00', 'sha256=' + '0'.repeat(64),
  'Basic ', 'Basic !!!', `Basic ${Buffer.from('postmark:wrong').toString('base64')}`, `Basic ${Buffer.from(':').toString('base64')}`, `Basic ${Buffer.from('a'.repeat(5000)).toString('base64')}`, 'Bearer x',
  '9999999999999999999999', '-1', '1990-12-31T23:59:60Z', 'msg_' + 'x'.repeat(300), '%00', 'é',
];

/** A payload for a source: the provider's format gone wrong, or anything at all. */
function payload(rng: Rng): { body: Buffer; contentType: string } {
  return rng.weighted<{ body: Buffer; contentType: string }>([
    [3, () => ({ body: toBytes(hostileObject(rng), rng), contentType: 'application/json' })],
    [2, () => ({ body: toBytes(rng.pick([deepNesting(rng), hostileValue(rng), '{"From":{"Email":[]},"To":1,"Subject":{},"TextBody":null,"Attachments":"x"}', '{"FromFull":{"Email":"\\u0000"},"MessageID":1e400,"Date":"1990-12-31T23:59:60Z","Headers":[{"Name":1,"Value":{}}]}', '{"type":"x","timestamp":"1e400","data":' + hostileValue(rng) + '}']), rng), contentType: 'application/json' })],
    [2, () => ({ body: Buffer.from(rng.pick(['Body=', 'Body=%FF%FE&From=%2B1', 'Body=Character%201&From=%2B15550001', `Body=${'x'.repeat(20000)}`, 'Body&Body=a&Body=b', 'a=%zz&b', '__proto__[x]=1&Body=x', '=&&=', `timestamp=1&token=${'t'.repeat(50)}&signature=00`])), contentType: 'application/x-www-form-urlencoded' })],
    [1, () => ({ body: Buffer.from('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\ny\r\n--b--'), contentType: rng.pick(['multipart/form-data; boundary=b', 'multipart/form-data', 'multipart/form-data; boundary=']) })],
    [1, () => ({ body: rng.bytes(rng.int(0, 300)), contentType: rng.pick(['application/octet-stream', 'application/json', 'text/plain', '']) })],
  ]);
}

/**
 * Deliveries to the webhook receivers: unsigned or with garbage signatures (must be refused, and
 * leave nothing behind), and correctly signed ones with hostile payloads (stored, never a 5xx).
 */
export function webhookRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const names = Object.keys(ctx.sources);
  const source = rng.chance(0.5) ? rng.pick(['mail', 'sms']) : rng.pick(names);
  const { body, contentType } = payload(rng);
  if (rng.chance(0.3)) {
    const signed = sampleRequest(source, ctx.sources[source]!, ctx.base, { body, contentType });
    return { origin: `grammar: webhook ${source} signed`, method: 'POST', path: signed.url.slice(ctx.base.length), headers: signed.headers, body: signed.body, mayChangeWhenRejected: true };
  }
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  for (const name of SIGNATURE_HEADERS) if (rng.chance(0.3)) headers[name] = rng.pick(GARBAGE_SIGNATURES);
  const path = rng.chance(0.9) ? `/webhooks/${source}` : rng.pick([`/webhooks/${source}?bodySHA256=${'0'.repeat(64)}`, '/webhooks/unknown', '/webhooks/', `/webhooks/${source}/`, `/webhooks/${source.toUpperCase()}`]);
  return { origin: `grammar: webhook ${source} unsigned`, method: 'POST', path, headers, body };
}
