import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { RestwellServer } from '../../src/app/server.js';
import { adminKey, inbox, listening, post } from './webhooks-support.js';
import { bearer, engines } from '../../src/test-support/test-server.js';

const json = { 'content-type': 'application/json' };
const merge = { 'content-type': 'application/merge-patch+json' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };
const mailAuth = `Basic ${Buffer.from('postmark:test-mail-password').toString('base64')}`;

for (const engine of engines) {
  describe(`text is valid Unicode everywhere (${engine.name})`, () => {
    let server: RestwellServer;
    let base: string;
    let admin: string;
    const inject = (o: InjectOptions): Promise<LightMyRequestResponse> => server.app.inject(o);
    /** The body is refused as malformed-json, saying why; nothing was stored. */
    const refused = async (res: LightMyRequestResponse, why: RegExp) => {
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().type.endsWith('/problems/malformed-json'), true, res.body);
      assert.match(res.json().detail, why);
    };

    before(async () => {
      ({ server, base } = await listening(engine));
      admin = await adminKey(server);
    });
    after(() => server.close());

    test('a lone surrogate escape in any body is 400 malformed-json naming where, and nothing is stored (no U+FFFD)', async () => {
      const lone = /the value at \/name holds an unpaired UTF-16 surrogate/;
      for (const name of ['\\ud800', 'x\\udfff', '\\ude00\\ud83d', '\\ud83d']) {
        await refused(await inject({ method: 'POST', url: '/characters', headers: json, payload: `{"name":"${name}"}` }), lone);
        await refused(await inject({ method: 'PUT', url: '/characters/77', headers: json, payload: `{"name":"${name}"}` }), lone);
      }
      await refused(await inject({ method: 'POST', url: '/messages', headers: json, payload: '{"to":{"deep":[{"x":"\\ud800"}]}}' }), /the value at \/to\/deep\/0\/x holds an unpaired/);
      await refused(await inject({ method: 'POST', url: '/messages', headers: json, payload: '{"to":{"\\udbff":1}}' }), /the value at \/to\/\\uDBFF holds an unpaired/);
      assert.equal((await inject({ method: 'GET', url: '/characters' })).json().count, 0);
      assert.equal((await inject({ method: 'GET', url: '/messages' })).json().count, 0);

      const id = (await inject({ method: 'POST', url: '/characters', headers: json, payload: { name: 'Lisa' } })).json().id;
      await refused(await inject({ method: 'PATCH', url: `/characters/${id}`, headers: merge, payload: '{"number":"\\ud800"}' }), /the value at \/number holds an unpaired/);
      await refused(await inject({ method: 'PATCH', url: `/characters/${id}`, headers: jsonPatch, payload: '[{"op":"replace","path":"/name","value":"\\udc00"}]' }), /the value at \/0\/value holds an unpaired/);
      await refused(await inject({ method: 'PATCH', url: `/characters/${id}`, headers: jsonPatch, payload: '[{"op":"add","path":"/\\ud800","value":"x"}]' }), /the value at \/0\/path holds an unpaired/);
      const read = await inject({ method: 'GET', url: `/characters/${id}` });
      assert.equal(read.json().name, 'Lisa');
      assert.equal(read.json().number, null);
      await refused(await inject({ method: 'POST', url: '/webhook-endpoints', headers: { ...json, ...(await bearer(server)) }, payload: '{"url":"https://example.com/\\ud800"}' }), /the value at \/url holds an unpaired/);
    });

    test('a pair of surrogates is one character, stored and read back exactly on this engine', async () => {
      const created = await inject({ method: 'POST', url: '/characters', headers: json, payload: '{"name":"Moe \\ud83c\\udf7a","number":"😀 \\u00e9"}' });
      assert.equal(created.statusCode, 201, created.body);
      const read = (await inject({ method: 'GET', url: `/characters/${created.json().id}` })).json();
      assert.equal(read.name, 'Moe 🍺');
      assert.equal(read.number, '😀 é');
      assert.ok(!read.name.includes('\uFFFD'));
    });

    test('a member name repeated in one object, at any depth, is 400 malformed-json; nothing is stored', async () => {
      const repeated = (pointer: string) => new RegExp(`the member at ${pointer.replaceAll('/', '\\/')} repeats a member name of its object`);
      await refused(await inject({ method: 'POST', url: '/characters', headers: json, payload: '{"name":"Bart","name":"Homer"}' }), repeated('/name'));
      await refused(await inject({ method: 'POST', url: '/characters', headers: json, payload: '{"name":"Bart","\\u006eame":"Homer"}' }), repeated('/name'));
      await refused(await inject({ method: 'POST', url: '/messages', headers: json, payload: '{"to":[{"a":1},{"a":1,"a":2}]}' }), repeated('/to/1/a'));
      await refused(await inject({ method: 'PUT', url: '/characters/5', headers: json, payload: '{"name":"Bart","number":"1","number":"2"}' }), repeated('/number'));
      assert.equal((await inject({ method: 'GET', url: '/characters?name=Bart' })).json().count, 0);
      assert.equal((await inject({ method: 'GET', url: '/characters?name=Homer' })).json().count, 0);
      const id = (await inject({ method: 'GET', url: '/characters?name=Lisa' })).json()._embedded.characters[0].id;
      await refused(await inject({ method: 'PATCH', url: `/characters/${id}`, headers: merge, payload: '{"number":null,"number":"2"}' }), repeated('/number'));
      await refused(await inject({ method: 'PATCH', url: `/characters/${id}`, headers: jsonPatch, payload: '[{"op":"remove","path":"/number","op":"add","value":"9"}]' }), repeated('/0/op'));
      assert.equal((await inject({ method: 'GET', url: `/characters/${id}` })).json().number, null);
      // The same name in two objects, or as a value, is no repeat.
      const ok = await inject({ method: 'POST', url: '/messages', headers: json, payload: '{"to":[{"a":1},{"a":1}],"subject":"subject"}' });
      assert.equal(ok.statusCode, 201, ok.body);
    });

    test('an inbound JSON payload with a lone surrogate or a repeated name is a payload problem kept in the inbox, not a 5xx', async () => {
      const headers = { 'content-type': 'application/json', authorization: mailAuth };
      const payloads = [
        ['pm-lone', '{"MessageID":"pm-lone","From":"a@example.com","Subject":"\\ud800"}', /Subject holds an unpaired UTF-16 surrogate/],
        ['pm-twice', '{"MessageID":"pm-twice","From":"a@example.com","Subject":"a","Subject":"b"}', /the member at \/Subject repeats a member name/],
      ] as const;
      for (const [id, body, why] of payloads) {
        const res = await post(`${base}/webhooks/mail`, headers, body);
        assert.ok(res.status < 500, `${res.status} ${res.text}`);
        assert.equal(res.status, 403, res.text);
        assert.match(res.json().detail, why);
        const failed = (await inbox(base, 'mail', admin, '&status=failed')).filter((d) => d.eventId === id || d.lastError?.match(why));
        assert.equal(failed.length, 1, `${id} kept as failed`);
      }
      const messages = (await inject({ method: 'GET', url: '/messages?subject=b' })).json();
      assert.equal(messages.count, 0);
    });
  });
}
