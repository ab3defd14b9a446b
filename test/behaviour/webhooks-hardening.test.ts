import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { newDeliveryId } from '../../src/store/inbox.js';
import { engines, TEST_DEMO_SECRETS, testServer } from '../../src/test-support/test-server.js';
import { UNVERIFIED_PER_ADDRESS } from '../../src/webhooks/inbound/delivery-limits.js';
import { signBasicAuth, signMailgun, signStandardWebhooks } from '../../src/webhooks/inbound/verifiers/index.js';
import { SECRETS, WEBHOOK_CONFIG } from './webhooks-support.js';

const TOKEN = 'shared-token-7f3a9c1e5b';
const BEARER_TOKEN = 'bearer-token-2d8e4f6a0c';
const MAX_DEPTH = 8;

/** The webhook test config, with a shallow depth limit, a rate-limited source and shared-token sources. */
const CONFIG = {
  ...WEBHOOK_CONFIG,
  server: { maxJsonDepth: MAX_DEPTH },
  webhooks: {
    sources: {
      ...WEBHOOK_CONFIG.webhooks.sources,
      guarded: { provider: 'standard-webhooks', verify: { secret: SECRETS.standard }, rateLimit: { limit: 3, window: '1m' } },
      token: { provider: 'generic', verify: { header: 'X-Hook-Token', secret: TOKEN } },
      bearer: { provider: 'generic', verify: { header: 'authorization', secret: BEARER_TOKEN } },
    },
  },
};

/** JSON text nesting `depth` levels deep, `{"a":{"a":…1…}}` (built as text: JSON.stringify would overflow on it). */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

for (const engine of engines) {
  describe(`webhooks under attack (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    before(async () => {
      server = await testServer(engine, CONFIG);
      admin = { authorization: `Bearer ${(await server.context.auth.apiKeys.create({ name: 'admin', scopes: ['*'] })).key}` };
    });
    after(() => server.close());

    const post = (source: string, remoteAddress: string, headers: Record<string, string>, payload: string) =>
      server.app.inject({ method: 'POST', url: `/webhooks/${source}`, remoteAddress, headers: { 'content-type': 'application/json', ...headers }, payload });
    const standard = (source: string, remoteAddress: string, id: string, body: string, secret = SECRETS.standard) =>
      post(source, remoteAddress, signStandardWebhooks({ secret, id, body }), body);
    const get = (url: string) => server.app.inject({ url, headers: admin });

    test('forged deliveries spend their own address’s bound, never the source’s limit: genuine ones still get through', async () => {
      const forger = '203.0.113.66';
      const forged = [];
      for (let i = 0; i < UNVERIFIED_PER_ADDRESS.limit + 3; i++) {
        forged.push(await standard('guarded', forger, `msg_forged_${i}`, '{"forged":true}', 'whsec_d3Jvbmcgc2VjcmV0IGZvciBmb3JnaW5n'));
      }
      assert.deepEqual(forged.slice(0, UNVERIFIED_PER_ADDRESS.limit).map((r) => r.statusCode), Array(UNVERIFIED_PER_ADDRESS.limit).fill(401));
      const limited = forged.at(-1)!;
      assert.equal(limited.statusCode, 429);
      assert.match(String(limited.headers['content-type']), /^application\/problem\+json/);
      assert.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After says when to come back');
      assert.match(String(limited.headers['ratelimit-policy']), /^"webhooks\.unverified";q=\d+;w=\d+$/);
      assert.match(limited.json().detail, /failed verification/);

      // The source's limit (3) is untouched by the flood: three genuine deliveries pass, even one from the forger's address.
      assert.equal((await standard('guarded', '198.51.100.1', 'msg_real_1', '{"n":1}')).statusCode, 200);
      assert.equal((await standard('guarded', forger, 'msg_real_2', '{"n":2}')).statusCode, 200, 'a genuine delivery is never refused for what forgers did');
      assert.equal((await standard('guarded', '198.51.100.1', 'msg_real_3', '{"n":3}')).statusCode, 200);
      const over = await standard('guarded', '198.51.100.1', 'msg_real_4', '{"n":4}');
      assert.equal(over.statusCode, 429, 'verified deliveries are what the source limit counts');
      assert.match(over.json().detail, /source guarded takes 3 deliveries/);

      const elsewhere = await standard('guarded', '192.0.2.7', 'msg_forged_x', '{"forged":true}', 'whsec_d3Jvbmcgc2VjcmV0IGZvciBmb3JnaW5n');
      assert.equal(elsewhere.statusCode, 401, 'another address is not limited by the forger’s flood');
      const stored = (await get('/webhooks/guarded/events?limit=100')).json()._embedded.deliveries;
      assert.deepEqual(stored.map((d: any) => d.eventId), ['msg_real_1', 'msg_real_2', 'msg_real_3'], 'nothing forged was stored');
    });

    test('a genuine delivery nesting deeper than server.maxJsonDepth is refused at once in the provider’s do-not-retry status, kept as failed', async () => {
      const ok = nested(MAX_DEPTH);
      assert.equal((await standard('events', '198.51.100.2', 'msg_ok_depth', ok)).statusCode, 200, 'a payload at the limit is accepted');

      for (const depth of [MAX_DEPTH + 1, 100_000]) {
        const body = nested(depth);
        const res = await standard('events', '198.51.100.2', `msg_deep_${depth}`, body);
        assert.equal(res.statusCode, 422, res.body);
        assert.match(res.json().type, /\/problems\/webhook-payload-invalid$/);
        assert.match(res.json().detail, new RegExp(`deeper than ${MAX_DEPTH} levels`));
        const again = await standard('events', '198.51.100.2', `msg_deep_${depth}`, body);
        assert.equal(again.body, res.body, 'a redelivery gets the same answer');
        const d = (await get(`/webhooks/events/events/${res.json().delivery}`)).json();
        assert.deepEqual([d.status, d.attempts, d.nextAttemptAt], ['failed', 0, null], 'failed, and never scheduled for the worker');
        assert.match(d.lastError, /deeper than/);
      }

      const mail = `{"From":"a@example.com","Subject":"deep","MessageID":"pm-deep","Extra":${nested(MAX_DEPTH + 2)}}`;
      const auth = signBasicAuth(TEST_DEMO_SECRETS.MAIL_HOOK_USER, TEST_DEMO_SECRETS.MAIL_HOOK_PASSWORD);
      const postmark = await post('mail', '198.51.100.3', { authorization: auth }, mail);
      assert.equal(postmark.statusCode, 403, 'Postmark stops retrying on 403');
      assert.match(postmark.json().type, /\/problems\/webhook-rejected$/);

      const mailgun = await post('mailgun', '198.51.100.4', {}, `{"signature":${JSON.stringify(signMailgun(SECRETS.mailgun))},"event-data":${nested(MAX_DEPTH + 2)}}`);
      assert.equal(mailgun.statusCode, 406, 'Mailgun stops retrying on 406');
      assert.match(mailgun.json().type, /\/problems\/webhook-not-acceptable$/);
    });

    test('the worker gives a too-deep delivery up at once instead of retrying it', async () => {
      for (const depth of [MAX_DEPTH + 1, 100_000]) {
        // As if it had been accepted before the limit applied: received, its actions still to run.
        const { delivery } = await server.store.inbox.receive({
          id: newDeliveryId(), source: 'events', eventId: `msg_backlog_${depth}`, receivedAt: new Date().toISOString(), headers: {}, contentType: 'application/json',
          body: Buffer.from(nested(depth)), verification: { scheme: 'standard-webhooks' }, status: 'received', nextAttemptAt: new Date(Date.now() + 3_600_000).toISOString(),
          lastError: null, response: { status: 200, contentType: 'application/json', body: '{}' },
        });
        const attempt = await server.app.inject({ method: 'POST', url: `/webhooks/events/events/${delivery.id}/attempts`, headers: admin });
        assert.equal(attempt.statusCode, 201, attempt.body);
        assert.equal(attempt.json().outcome, 'failed');
        const d = (await get(`/webhooks/events/events/${delivery.id}`)).json();
        assert.deepEqual([d.status, d.nextAttemptAt], ['failed', null], 'given up, no retry scheduled');
        assert.match(d.lastError, /deeper than/);
      }
    });

    test('shared tokens and other credentials in headers are neither stored nor shown by the inbox', async () => {
      const token = await post('token', '198.51.100.5', { 'x-hook-token': TOKEN, 'x-api-key': 'api-key-4b1d', 'x-request-id': 'req-1' }, '{"id":"tok-1"}');
      assert.equal(token.statusCode, 200, token.body);
      const bearer = await post('bearer', '198.51.100.5', { authorization: `Bearer ${BEARER_TOKEN}`, 'x-forwarded-secret': 'zz', 'x-note': `Bearer ${'q'.repeat(12)}` }, '{"id":"bearer-1"}');
      assert.equal(bearer.statusCode, 200, bearer.body);
      const auth = signBasicAuth(TEST_DEMO_SECRETS.MAIL_HOOK_USER, TEST_DEMO_SECRETS.MAIL_HOOK_PASSWORD);
      const mail = await post('mail', '198.51.100.5', { authorization: auth }, JSON.stringify({ From: 'a@example.com', Subject: 'hi', MessageID: 'pm-creds' }));
      assert.equal(mail.statusCode, 200, mail.body);

      const secrets = [TOKEN, BEARER_TOKEN, 'api-key-4b1d', auth.slice('Basic '.length), TEST_DEMO_SECRETS.MAIL_HOOK_PASSWORD, 'q'.repeat(12)];
      const shown: string[] = [];
      for (const [source, res] of [['token', token], ['bearer', bearer], ['mail', mail]] as const) {
        const id = res.json().id;
        const stored = await server.store.inbox.get(source, id);
        shown.push(JSON.stringify(stored), (await get(`/webhooks/${source}/events/${id}`)).body, (await get(`/webhooks/${source}/events`)).body);
      }
      for (const secret of secrets) assert.ok(!shown.some((text) => text.includes(secret)), `${secret} is nowhere in the inbox`);

      const headers = (await get(`/webhooks/token/events/${token.json().id}`)).json().headers;
      assert.equal(headers['x-hook-token'], '[redacted]');
      assert.equal(headers['x-api-key'], '[redacted]');
      assert.equal(headers['x-request-id'], 'req-1', 'other headers are kept for debugging');
      const bearerHeaders = (await server.store.inbox.get('bearer', bearer.json().id))!.headers;
      assert.deepEqual([bearerHeaders.authorization, bearerHeaders['x-forwarded-secret'], bearerHeaders['x-note']], ['[redacted]', '[redacted]', '[redacted]']);
    });

    test('credentials stored before masking are masked when the inbox shows them', async () => {
      const { delivery } = await server.store.inbox.receive({
        id: newDeliveryId(), source: 'token', eventId: 'old-1', receivedAt: new Date().toISOString(), headers: { 'x-hook-token': TOKEN, 'x-other': 'kept' }, contentType: 'application/json',
        body: Buffer.from('{}'), verification: { scheme: 'header' }, status: 'processed', nextAttemptAt: null, lastError: null, response: { status: 200, contentType: 'application/json', body: '{}' },
      });
      const shown = (await get(`/webhooks/token/events/${delivery.id}`)).json();
      assert.deepEqual(shown.headers, { 'x-hook-token': '[redacted]', 'x-other': 'kept' });
    });
  });
}
