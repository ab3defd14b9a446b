import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { encodeForm, encodeMultipart } from '../payload/form-body.js';
import { parsePayload } from '../payload/parse-payload.js';
import { PayloadError } from '../payload/payload-error.js';
import { acceptsContentType } from './content-types.js';
import { normalize } from './normalize.js';
import { findProvider, PROVIDERS } from './registry.js';

const provider = (name: string) => findProvider(name) ?? assert.fail(`no provider ${name}`);

describe('normalize', () => {
  it('passes event providers\' JSON through as the payload', async () => {
    for (const p of ['standard-webhooks', 'github', 'stripe', 'generic']) {
      assert.deepEqual(await normalize(provider(p), 'application/json', Buffer.from('{"id":"evt_1","n":1}')), { kind: 'event', payload: { id: 'evt_1', n: 1 } });
    }
  });

  it('unwraps GitHub form-encoded deliveries and reads generic forms', async () => {
    const gh = encodeForm({ payload: '{"zen":"Keep it simple."}' });
    assert.deepEqual(await normalize(provider('github'), gh.contentType, gh.body), { kind: 'event', payload: { zen: 'Keep it simple.' } });
    const generic = encodeForm({ a: '1', b: '2' });
    assert.deepEqual(await normalize(provider('generic'), generic.contentType, generic.body), { kind: 'event', payload: { a: '1', b: '2' } });
  });

  it('lists the content types each provider may send', () => {
    for (const p of PROVIDERS) assert.ok(p.contentTypes.length > 0, p.name);
    assert.equal(acceptsContentType(provider('postmark'), 'application/json; charset=utf-8'), true);
    assert.equal(acceptsContentType(provider('postmark'), 'Application/JSON'), true);
    assert.equal(acceptsContentType(provider('stripe'), 'application/cloudevents+json'), true);
    assert.equal(acceptsContentType(provider('postmark'), 'multipart/form-data; boundary=x'), false);
    assert.equal(acceptsContentType(provider('sendgrid'), 'application/json'), false);
    assert.equal(acceptsContentType(provider('twilio'), 'application/x-www-form-urlencoded'), true);
    assert.equal(acceptsContentType(provider('twilio'), undefined), false);
  });

  it('throws only PayloadError, whatever the bytes', async () => {
    const bodies = [Buffer.alloc(0), Buffer.from('null'), Buffer.from('"x"'), Buffer.from('{"a":'), Buffer.from('\u0000\uffff'), randomBytes(64)];
    const types = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=b', 'multipart/form-data', 'text/plain', ''];
    for (const p of PROVIDERS) {
      for (const ct of types) {
        for (const body of bodies) {
          try {
            await normalize(p, ct, body);
          } catch (err) {
            assert.ok(err instanceof PayloadError, `${p.name} ${ct}: ${(err as Error).stack}`);
            assert.equal(err.provider, p.name);
            assert.ok(err.message.length > 0);
          }
        }
      }
    }
  });

  it('parsePayload reads JSON and forms for event-id lookup', () => {
    assert.deepEqual(parsePayload('application/json', Buffer.from('{"id":1}')), { id: 1 });
    assert.deepEqual(parsePayload('application/x-www-form-urlencoded', Buffer.from('MessageSid=SM1&Body=a+b')), { MessageSid: 'SM1', Body: 'a b' });
    const mp = encodeMultipart({ headers: 'Message-ID: <x>' }, [{ field: 'attachment1', filename: 'a', contentType: 'text/plain', data: 'x' }]);
    assert.deepEqual(parsePayload(mp.contentType, mp.body), { headers: 'Message-ID: <x>' });
    assert.throws(() => parsePayload('text/plain', Buffer.from('x')), PayloadError);
  });
});
