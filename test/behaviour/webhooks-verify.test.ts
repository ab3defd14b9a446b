import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sign as octokitSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import twilio from 'twilio';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, TEST_DEMO_SECRETS } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { samplePostmarkEmail, sampleTwilioSms, sampleMailgunEmail } from '../../src/webhooks/inbound/providers/index.js';
import { signBasicAuth, signMailgun } from '../../src/webhooks/inbound/verifiers/index.js';
import { eventually, listeningWithAdmin, get, inbox, post, SECRETS } from './webhooks-support.js';

const vectors = JSON.parse(readFileSync(new URL('../fixtures/webhook-signatures.json', import.meta.url), 'utf8'));
const now = () => Math.floor(Date.now() / 1000);

for (const engine of engines) {
  describe(`webhook verification over a socket (${engine.name})`, () => {
    let server: RestwellServer, base: string, admin: string;
    before(async () => {
      ({ server, base, admin } = await listeningWithAdmin(engine));
    });
    after(() => server.close());

    /** Asserts a 401 problem with the verifier's reason code. */
    const rejected = (res: { status: number; json(): any }, reason: string) => {
      assert.equal(res.status, 401);
      assert.equal(res.json().type.endsWith('/problems/webhook-unverified'), true);
      assert.equal(res.json().reason, reason);
    };

    test('Standard Webhooks: the standardwebhooks library signs, tampering, a wrong secret, a stale timestamp and missing headers are refused', async () => {
      const body = JSON.stringify({ type: 'invoice.paid', data: { amount: 42 } });
      const signed = (id: string, secret = SECRETS.standard, at = new Date()) => ({
        'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body),
      });
      const ok = await post(`${base}/webhooks/events`, signed('msg_good'), body);
      assert.equal(ok.status, 200, ok.text);
      rejected(await post(`${base}/webhooks/events`, signed('msg_tampered'), body.replace('42', '43')), 'bad_signature');
      rejected(await post(`${base}/webhooks/events`, signed('msg_wrong', 'whsec_' + Buffer.from('another secret').toString('base64')), body), 'bad_signature');
      rejected(await post(`${base}/webhooks/events`, signed('msg_stale', SECRETS.standard, new Date(Date.now() - 10 * 60_000)), body), 'stale_timestamp');
      rejected(await post(`${base}/webhooks/events`, { 'content-type': 'application/json' }, body), 'missing_signature');
      // The published vector is genuine but from 2021: too old to accept.
      const v = vectors['standard-webhooks-v1'];
      rejected(await post(`${base}/webhooks/events`, { 'content-type': 'application/json', 'webhook-id': v.msg_id, 'webhook-timestamp': String(v.timestamp), 'webhook-signature': v.signature }, v.payload), 'stale_timestamp');

      const stored = await inbox(base, 'events', admin);
      assert.deepEqual(stored.map((d) => d.eventId), ['msg_good'], 'only the genuine delivery is in the inbox');
      // The event is appended once the delivery is stored; on PostgreSQL a reader sees it once the log's horizon passes it.
      const events = await waitFor(async () => {
        const found = (await get(`${base}/events?type=webhook.events.received`, admin)).json()._embedded.events as unknown[];
        return found.length > 0 && found;
      }, 'the genuine delivery\'s event');
      assert.equal(events.length, 1, 'only the genuine delivery became an event');
    });

    test('GitHub: @octokit/webhooks-methods and the published vector are accepted; tampering and a wrong secret are not', async () => {
      const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
      const headers = async (secret: string, delivery: string) => ({ 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': delivery, 'x-hub-signature-256': await octokitSign(secret, body) });
      assert.equal((await post(`${base}/webhooks/github`, await headers(SECRETS.github, 'd-1'), body)).status, 200);
      rejected(await post(`${base}/webhooks/github`, await headers(SECRETS.github, 'd-2'), body + ' '), 'bad_signature');
      rejected(await post(`${base}/webhooks/github`, await headers('not the secret', 'd-3'), body), 'bad_signature');
      rejected(await post(`${base}/webhooks/github`, { 'content-type': 'application/json', 'x-github-delivery': 'd-4' }, body), 'missing_signature');
      const v = vectors['github-sha256'];
      assert.equal((await post(`${base}/webhooks/github`, { 'content-type': 'application/json', 'x-github-delivery': 'd-vector', 'x-hub-signature-256': v.header }, v.payload)).status, 200);
      assert.deepEqual((await inbox(base, 'github', admin)).map((d) => d.eventId), ['d-1', 'd-vector']);
    });

    test("Stripe: stripe's generateTestHeaderString is accepted; stale, tampered and unsigned are not", async () => {
      const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: {} } });
      const header = (o: { secret?: string; timestamp?: number; payload?: string } = {}) =>
        Stripe.webhooks.generateTestHeaderString({ payload: o.payload ?? body, secret: o.secret ?? SECRETS.stripe, timestamp: o.timestamp ?? now() });
      assert.equal((await post(`${base}/webhooks/stripe`, { 'content-type': 'application/json', 'stripe-signature': header() }, body)).status, 200);
      rejected(await post(`${base}/webhooks/stripe`, { 'content-type': 'application/json', 'stripe-signature': header({ timestamp: now() - 3600 }) }, body), 'stale_timestamp');
      rejected(await post(`${base}/webhooks/stripe`, { 'content-type': 'application/json', 'stripe-signature': header({ secret: 'whsec_other' }) }, body), 'bad_signature');
      rejected(await post(`${base}/webhooks/stripe`, { 'content-type': 'application/json', 'stripe-signature': header() }, body.replace('evt_1', 'evt_2')), 'bad_signature');
      rejected(await post(`${base}/webhooks/stripe`, { 'content-type': 'application/json' }, body), 'missing_signature');
      assert.deepEqual((await inbox(base, 'stripe', admin)).map((d) => d.eventId), ['evt_1'], 'Stripe event id de-duplicates');
    });

    test("Twilio: twilio's getExpectedTwilioSignature over the full URL is accepted; a tampered parameter or wrong token is not", async () => {
      const sms = sampleTwilioSms({ text: 'hello' });
      const url = `${base}/webhooks/sms`;
      const sig = (token: string) => twilio.getExpectedTwilioSignature(token, url, sms.params);
      assert.equal((await post(url, { 'content-type': sms.contentType, 'x-twilio-signature': sig(TEST_DEMO_SECRETS.TWILIO_AUTH_TOKEN) }, sms.body)).status, 200);
      const tampered = sms.body.toString().replace('Body=hello', 'Body=hullo');
      rejected(await post(url, { 'content-type': sms.contentType, 'x-twilio-signature': sig(TEST_DEMO_SECRETS.TWILIO_AUTH_TOKEN) }, tampered), 'bad_signature');
      rejected(await post(url, { 'content-type': sms.contentType, 'x-twilio-signature': sig('0'.repeat(32)) }, sms.body), 'bad_signature');
      rejected(await post(url, { 'content-type': sms.contentType }, sms.body), 'missing_signature');
      assert.equal((await inbox(base, 'sms', admin)).length, 1);
    });

    test('Mailgun and Postmark: stale or forged Mailgun signatures and wrong Basic credentials leave no record', async () => {
      const good = signMailgun(SECRETS.mailgun);
      const stale = signMailgun(SECRETS.mailgun, { timestamp: now() - 3600 });
      const forged = { ...signMailgun('wrong key') };
      for (const [fields, reason] of [[stale, 'stale_timestamp'], [forged, 'bad_signature'], [{}, 'missing_signature']] as const) {
        const mail = sampleMailgunEmail({ subject: 'forged' }, fields as Record<string, string>);
        rejected(await post(`${base}/webhooks/mailgun`, { 'content-type': mail.contentType }, mail.body), reason);
      }
      const mail = samplePostmarkEmail({ subject: 'forged' });
      const res = await post(`${base}/webhooks/mail`, { 'content-type': mail.contentType, authorization: signBasicAuth('postmark', 'guess') }, mail.body);
      rejected(res, 'bad_credentials');
      assert.match(String(res.headers['www-authenticate']), /^Basic realm="webhooks\/mail"/);
      rejected(await post(`${base}/webhooks/mail`, { 'content-type': mail.contentType }, mail.body), 'missing_signature');
      const genuine = sampleMailgunEmail({ subject: 'genuine', messageId: `<${randomUUID()}@mg>` }, good);
      assert.equal((await post(`${base}/webhooks/mailgun`, { 'content-type': genuine.contentType }, genuine.body)).status, 200);
      const messages = await eventually(async () => {
        const list = (await get(`${base}/messages`)).json()._embedded.messages;
        return list.length ? list : undefined;
      }, 'the genuine delivery to become a record');
      assert.deepEqual(messages.map((m: any) => m.subject), ['genuine'], 'no forged delivery became a record');
      assert.equal((await inbox(base, 'mail', admin)).length, 0);
    });
  });
}
