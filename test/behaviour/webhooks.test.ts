import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, TEST_DEMO_SECRETS } from '../../src/test-support/test-server.js';
import { samplePostmarkEmail, sampleTwilioSms, sampleMailgunEmail } from '../../src/webhooks/inbound/providers/index.js';
import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';
import { signBasicAuth, signMailgun, signStandardWebhooks, signTwilio } from '../../src/webhooks/inbound/verifiers/index.js';
import { listeningWithAdmin, eventually, get, inbox, post, SECRETS, WEBHOOK_CONFIG } from './webhooks-support.js';

const json = { 'content-type': 'application/json' };
const mailAuth = signBasicAuth(TEST_DEMO_SECRETS.MAIL_HOOK_USER, TEST_DEMO_SECRETS.MAIL_HOOK_PASSWORD);

for (const engine of engines) {
  describe(`receiving webhooks on the demo (${engine.name})`, () => {
    let server: RestwellServer, base: string, admin: string;
    before(async () => {
      ({ server, base, admin } = await listeningWithAdmin(engine));
      await post(`${base}/characters`, json, JSON.stringify({ name: 'Homer', number: '+1 555 0100' }));
      await post(`${base}/characters`, json, JSON.stringify({ name: 'Homer Simpson Jr', number: '+1 555 0199' }));
      await post(`${base}/characters`, json, JSON.stringify({ name: 'Tom & Jerry', number: '<none>' }));
    });
    after(() => server.close());

    const sms = async (text: string, messageId?: string) => {
      const s = sampleTwilioSms({ text, messageId });
      const url = `${base}/webhooks/sms`;
      const { signature } = signTwilio({ authToken: TEST_DEMO_SECRETS.TWILIO_AUTH_TOKEN, url, params: s.params });
      return post(url, { 'content-type': s.contentType, 'x-twilio-signature': signature }, s.body);
    };

    test('a Twilio SMS "who is homer?" is answered with TwiML carrying Homer\'s number; unknown names get a helpful reply', async () => {
      const res = await sms('who is homer?');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^text\/xml/);
      assert.equal(res.text, '<?xml version="1.0" encoding="UTF-8"?><Response><Message>Homer: +1 555 0100</Message></Response>');
      assert.match((await sms('HOMER SIMPSON JR!!')).text, /<Message>Homer Simpson Jr: \+1 555 0199<\/Message>/, 'the longest name wins');
      assert.match((await sms('tom & jerry?')).text, /<Message>Tom &amp; Jerry: &lt;none&gt;<\/Message>/, 'XML is escaped');
      assert.match((await sms('who is flanders?')).text, /<Message>Sorry, I don&apos;t know &quot;who is flanders\?&quot;\. Try a name like Homer\.<\/Message>/);
    });

    test('a redelivered SMS gets the first answer again and is stored once', async () => {
      const sid = 'SM0123456789abcdef0123456789abcdef';
      const first = await sms('who is homer', sid);
      await post(`${base}/characters`, json, JSON.stringify({ name: 'Marge', number: '1' }));
      const again = await sms('who is homer', sid);
      assert.equal(again.status, first.status);
      assert.equal(again.text, first.text);
      assert.equal((await inbox(base, 'sms', admin)).filter((d) => d.eventId === sid).length, 1);
    });

    test('a Postmark e-mail becomes a messages record with subject, text and attachments; sent twice, it is stored once', async () => {
      const mail = samplePostmarkEmail({ subject: 'Donuts', text: 'Mmm, donuts.', attachments: [{ name: 'menu.txt', type: 'text/plain', content: 'glazed' }] });
      const headers = { 'content-type': mail.contentType, authorization: mailAuth };
      const first = await post(`${base}/webhooks/mail`, headers, mail.body);
      assert.equal(first.status, 200, first.text);
      const second = await post(`${base}/webhooks/mail`, headers, mail.body);
      assert.equal(second.text, first.text, 'the redelivery is answered like the first');
      const records = await eventually(async () => {
        const list = (await get(`${base}/messages?subject=Donuts`)).json()._embedded.messages;
        return list.length ? list : undefined;
      }, 'the messages record');
      assert.equal(records[0].text, 'Mmm, donuts.');
      assert.equal(records[0].from, 'Marge Simpson <marge@example.com>');
      assert.deepEqual(records[0].to, ['inbox@restwell.example']);
      assert.deepEqual(records[0].attachments.map((a: any) => [a.name, a.type, a.size, Buffer.from(a.content, 'base64').toString()]), [['menu.txt', 'text/plain', 6, 'glazed']]);
      const stored = await inbox(base, 'mail', admin);
      assert.equal(stored.filter((d) => d.id === first.json().id).length, 1);
      const delivery = (await get(`${base}/webhooks/mail/events/${first.json().id}`, admin)).json();
      assert.equal(delivery.status, 'processed');
      assert.equal(delivery.attempts, 1);
      assert.equal(delivery.headers.authorization, '[redacted]', 'credentials are not kept');
      assert.equal(JSON.parse(delivery.body).Subject, 'Donuts');
      assert.deepEqual(delivery.response, { status: 200, contentType: 'application/json', body: first.text });
      assert.match(delivery.attemptLog[0].result.records[0], /^\/messages\/\d+$/);
      // Still one record after the worker has surely seen both deliveries.
      assert.equal((await get(`${base}/messages?subject=Donuts`)).json().count, 1);
    });

    test('hooks send builds requests the server accepts', async () => {
      const { sources } = server.app.restwell.config.webhooks;
      for (const name of ['sms', 'mail', 'events', 'github', 'stripe', 'mailgun']) {
        const r = sampleRequest(name, sources[name]!, base, { text: 'who is homer?' });
        const res = await post(r.url, r.headers, r.body);
        assert.equal(res.status, 200, `${name}: ${res.text}`);
      }
    });

    test('unknown source 404, unsupported content type 415, too large 413, rate limit 429 with Retry-After', async () => {
      const unknown = await post(`${base}/webhooks/nope`, json, '{}');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json().status, 404);
      const xml = await post(`${base}/webhooks/mail`, { 'content-type': 'text/xml', authorization: mailAuth }, '<x/>');
      assert.equal(xml.status, 415);
      assert.match(xml.json().detail, /postmark sends application\/json/);
      assert.equal((await post(`${base}/webhooks/tiny`, json, JSON.stringify({ pad: 'x'.repeat(100) }))).status, 413);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await post(`${base}/webhooks/tiny`, json, JSON.stringify({ id: `n${i}` }))).status);
      assert.deepEqual(statuses, [200, 200, 200, 429], '3 per minute (the 413 was refused before it counted)');
      const limited = await post(`${base}/webhooks/tiny`, json, '{}');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      // JSON elsewhere is parsed as before.
      assert.equal((await post(`${base}/characters`, json, '{"name": ')).status, 400);
    });

    test('a genuine payload that can never be stored: Postmark gets 403, Mailgun 406; kept as failed, answered the same on redelivery', async () => {
      const body = JSON.stringify({ Subject: 'no sender', MessageID: 'pm-broken' });
      const res = await post(`${base}/webhooks/mail`, { 'content-type': 'application/json', authorization: mailAuth }, body);
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json().type.endsWith('/problems/webhook-rejected'), true);
      const again = await post(`${base}/webhooks/mail`, { 'content-type': 'application/json', authorization: mailAuth }, body);
      assert.equal(again.text, res.text);
      const failed = await inbox(base, 'mail', admin, '&status=failed');
      assert.deepEqual(failed.map((d) => d.eventId), ['pm-broken']);
      assert.match(failed[0].lastError, /./);
      const mg = sampleMailgunEmail({ subject: 'bad headers' }, { ...signMailgun(SECRETS.mailgun), 'message-headers': '{"not": "a list"}' });
      const mgRes = await post(`${base}/webhooks/mailgun`, { 'content-type': mg.contentType }, mg.body);
      assert.equal(mgRes.status, 406, mgRes.text);
      assert.equal(mgRes.json().type.endsWith('/problems/webhook-not-acceptable'), true);
    });

    test('the inbox needs the admin scope; attempts are a resource', async () => {
      assert.equal((await get(`${base}/webhooks/mail/events`)).status, 401);
      assert.equal((await get(`${base}/webhooks/nope/events`, admin)).status, 404);
      assert.equal((await get(`${base}/webhooks/mail/events?status=odd`, admin)).status, 400);
      const [processed] = await inbox(base, 'mail', admin, '&status=processed');
      const conflict = await post(`${base}/webhooks/mail/events/${processed.id}/attempts`, { authorization: `Bearer ${admin}` }, '');
      assert.equal(conflict.status, 409);
      const [failed] = await inbox(base, 'mail', admin, '&status=failed');
      const retry = await post(`${base}/webhooks/mail/events/${failed.id}/attempts`, { authorization: `Bearer ${admin}` }, '');
      assert.equal(retry.status, 201, retry.text);
      assert.equal(retry.json().outcome, 'failed');
      assert.equal(retry.json().number, 1);
      const location = String(retry.headers.location);
      assert.equal((await get(base + location, admin)).json().number, 1);
      assert.equal((await get(`${base}/webhooks/mail/events/${failed.id}/attempts`, admin)).json().count, 1);
    });
  });
}

for (const engine of engines) {
  describe(`webhook actions that fail are retried and visible (${engine.name})`, () => {
    let server: RestwellServer, base: string, admin: string;
    const config = {
      resources: { people: { fields: { name: { type: 'string', required: true, unique: true } }, access: { read: 'public', write: 'public' } } },
      webhooks: { sources: { hooks: { provider: 'standard-webhooks', verify: { secret: SECRETS.standard }, actions: [{ store: 'people', map: { name: 'payload.name' } }, { emit: true }] } } },
    };
    before(async () => {
      ({ server, base, admin } = await listeningWithAdmin(engine, config));
    });
    after(() => server.close());

    test('a conflicting record is retried with backoff, then an attempt after the fix processes it once', async () => {
      const deliver = (id: string, name: string) => {
        const body = JSON.stringify({ name });
        return post(`${base}/webhooks/hooks`, { 'content-type': 'application/json', ...signStandardWebhooks({ secret: SECRETS.standard, id, body }) }, body);
      };
      assert.equal((await deliver('msg_a', 'Lisa')).status, 200);
      assert.equal((await deliver('msg_b', 'Lisa')).status, 200, 'acknowledged: the conflict only shows when the action runs');
      const waiting = await eventually(async () => {
        const d = (await get(`${base}/webhooks/hooks/events`, admin)).json()._embedded.deliveries.find((x: any) => x.eventId === 'msg_b');
        return d?.attempts === 1 ? d : undefined;
      }, 'the first failed attempt');
      assert.equal(waiting.status, 'received', 'still pending: it will be retried');
      assert.match(waiting.lastError, /already used/);
      assert.ok(Date.parse(waiting.nextAttemptAt) > Date.now(), 'the retry is scheduled later (backoff)');

      const people = (await get(`${base}/people`)).json()._embedded.people;
      await server.app.inject({ method: 'DELETE', url: `/people/${people[0].id}` });
      const attempt = await post(`${base}/webhooks/hooks/events/${waiting.id}/attempts`, { authorization: `Bearer ${admin}` }, '');
      assert.equal(attempt.status, 201, attempt.text);
      assert.equal(attempt.json().outcome, 'processed');
      assert.equal(attempt.json().number, 2);
      assert.equal((await get(`${base}/people`)).json().count, 1);
      const events = (await get(`${base}/events?type=webhook.hooks.received`, admin)).json()._embedded.events;
      assert.deepEqual(events.map((e: any) => e.data.eventId).sort(), ['msg_a', 'msg_b'], 'each delivery emitted once, with its effects');
      assert.equal(events[0]._links.record.href, `/webhooks/hooks/events/${events[0].recordId}`);
    });
  });
}
