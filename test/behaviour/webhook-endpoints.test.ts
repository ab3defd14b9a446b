import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { RestwellServer } from '../../src/app/server.js';
import { ConformanceChecker, type Exchange } from '../../src/test-support/openapi-conformance.js';
import { bearer, engines, PUBLIC_DEMO, testServer } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';

/** The public demo, delivering to loopback (where the test receiver listens) with quick retries. */
const CONFIG = {
  ...PUBLIC_DEMO,
  webhooks: { ...PUBLIC_DEMO.webhooks, outbound: { allowNetworks: ['127.0.0.1'], pollInterval: '50ms', retrySchedule: ['30s'], timeout: '5s' } },
};

const json = { 'content-type': 'application/json' };

/** A receiver on loopback: records every request and answers with `status`, once `hold` (when set) resolves. */
interface Receiver {
  url: string;
  requests: Array<{ headers: IncomingHttpHeaders; body: string }>;
  status: number;
  hold?: Promise<void>;
  close(): Promise<void>;
}

async function receiver(): Promise<Receiver> {
  const r: Receiver = { url: '', requests: [], status: 200, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = r.status;
      void (r.hold ?? Promise.resolve()).then(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => new Promise((resolve) => server.close(() => resolve()));
  return r;
}

/** Waits until `check` holds: for the event, not for a time. */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  await waitFor(check, what, 25);
}

for (const engine of engines) {
  describe(`/webhook-endpoints (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    let hook: Receiver;
    const exchanges: Exchange[] = [];

    /** One request through inject(), recorded for the conformance check at the end. */
    async function call(method: string, url: string, options: { headers?: Record<string, string>; body?: unknown; type?: string } = {}) {
      const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      const type = body === undefined ? undefined : (options.type ?? 'application/json');
      const headers = { ...admin, ...(type ? { 'content-type': type } : {}), ...options.headers };
      const res = await server.app.inject({ method: method as any, url, headers, payload: body });
      exchanges.push({ method, url, ...(body === undefined ? {} : { requestType: type, requestBody: body }), status: res.statusCode, headers: res.headers as Exchange['headers'], body: res.body });
      assert.ok(res.statusCode < 500, `${method} ${url} → ${res.statusCode} ${res.body}`);
      return res;
    }
    const create = async (body: Record<string, unknown>) => {
      const res = await call('POST', '/webhook-endpoints', { body });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    };
    const errorsOf = (res: { json(): any }) => res.json().errors.map((e: { pointer: string }) => e.pointer).sort();

    before(async () => {
      hook = await receiver();
      server = await testServer(engine, CONFIG);
      await server.app.ready();
      admin = await bearer(server);
    });
    after(async () => {
      await server.close();
      await hook.close();
    });

    test('POST creates: 201, Location, ETag, the secret once (no-store); GET and the list never show it', async () => {
      const res = await call('POST', '/webhook-endpoints', { body: { url: 'https://example.com/hooks', description: 'CRM', eventTypes: ['characters.*'] } });
      assert.equal(res.statusCode, 201, res.body);
      const ep = res.json();
      assert.match(ep.id, /^ep_[0-9a-f]{32}$/);
      assert.equal(res.headers.location, `/webhook-endpoints/${ep.id}`);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.match(String(res.headers.etag), /^".+"$/);
      assert.match(ep.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(ep.eventTypes, ['characters.*']);
      assert.equal(ep.enabled, true);
      assert.equal(ep.secrets.length, 1);
      assert.equal(ep.secrets[0].expiresAt, null);
      assert.ok(ep.secret.startsWith(ep.secrets[0].hint.replace('…', '')), 'the hint is the start of the secret');
      const read = await call('GET', `/webhook-endpoints/${ep.id}`);
      assert.equal(read.statusCode, 200);
      assert.equal(read.headers.etag, res.headers.etag);
      assert.equal(read.json().secret, undefined);
      assert.ok(!read.body.includes(ep.secret.slice(10)), 'no part of the secret beyond its hint');
      const list = await call('GET', '/webhook-endpoints?limit=100');
      assert.ok(!list.body.includes(ep.secret.slice(10)));
      assert.ok(list.json()._embedded['webhook-endpoints'].some((e: { id: string }) => e.id === ep.id));
      const given = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      assert.equal((await create({ url: 'https://example.com/given', secret: given })).secret, given);
      assert.equal((await call('GET', `/webhook-endpoints/${ep.id}`, { headers: { 'if-none-match': String(res.headers.etag) } })).statusCode, 304);
      const root = await call('GET', '/');
      assert.equal(root.json()._links['webhook-endpoints'].href, '/webhook-endpoints');
    });

    test('the list pages by keyset, oldest first; a forged cursor or unknown parameter is 400', async () => {
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await create({ url: `https://example.com/page/${i}` })).id);
      const seen: string[] = [];
      let url = '/webhook-endpoints?limit=2';
      for (let pages = 0; pages < 50; pages++) {
        const page = await call('GET', url);
        assert.equal(page.statusCode, 200);
        assert.ok(page.json().count <= 2);
        seen.push(...page.json()._embedded['webhook-endpoints'].map((e: { id: string }) => e.id));
        if (!page.json()._links.next) break;
        assert.match(String(page.headers.link), /rel="next"/);
        url = page.json()._links.next.href;
      }
      assert.deepEqual(seen, [...seen].sort(), 'oldest first');
      assert.equal(new Set(seen).size, seen.length, 'no endpoint twice');
      for (const id of made) assert.ok(seen.includes(id));
      assert.equal((await call('GET', '/webhook-endpoints?cursor=bm9wZQ')).statusCode, 400);
      assert.equal((await call('GET', '/webhook-endpoints?limit=0')).statusCode, 400);
      assert.equal((await call('GET', '/webhook-endpoints?sort=url')).json().detail, 'unknown query parameter "sort"; use limit, cursor');
    });

    test('PUT replaces with If-Match (412 when stale), a GET body PUT back changes nothing; PUT of an unknown id is 404', async () => {
      const ep = await create({ url: 'https://example.com/put', headers: { authorization: 'Bearer t' } });
      const first = await call('GET', `/webhook-endpoints/${ep.id}`);
      const etag = String(first.headers.etag);
      const same = await call('PUT', `/webhook-endpoints/${ep.id}`, { body: first.json(), headers: { 'if-match': etag } });
      assert.equal(same.statusCode, 200, same.body);
      assert.equal(same.headers.etag, etag, 'putting back what GET showed is no change');
      const changed = await call('PUT', `/webhook-endpoints/${ep.id}`, { body: { url: 'https://example.com/put2', rateLimit: { limit: 5, window: '60s' } }, headers: { 'if-match': etag } });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.notEqual(changed.headers.etag, etag);
      assert.deepEqual(changed.json().rateLimit, { limit: 5, window: '1m' });
      assert.deepEqual(changed.json().headers, {}, 'PUT replaces: members left out get their defaults');
      assert.equal(changed.json().secrets.length, 1, 'the secret is kept');
      const stale = await call('PUT', `/webhook-endpoints/${ep.id}`, { body: { url: 'https://example.com/lost' }, headers: { 'if-match': etag } });
      assert.equal(stale.statusCode, 412);
      assert.equal((await call('GET', `/webhook-endpoints/${ep.id}`)).json().url, 'https://example.com/put2');
      const missing = await call('PUT', '/webhook-endpoints/ep_0190aaaaaaaa7aaa8aaaaaaaaaaaaaaa', { body: { url: 'https://example.com/x' } });
      assert.equal(missing.statusCode, 404);
      assert.match(missing.json().detail, /no webhook endpoint has id ep_0190a+7a+8a+; GET \/webhook-endpoints lists them/);
      const renamed = await call('PUT', `/webhook-endpoints/${ep.id}`, { body: { ...changed.json(), id: 'ep_other' } });
      assert.deepEqual(errorsOf(renamed), ['/id']);
      const withSecret = await call('PUT', `/webhook-endpoints/${ep.id}`, { body: { url: 'https://example.com/x', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } });
      assert.equal(withSecret.statusCode, 422);
      assert.match(withSecret.json().errors[0].detail, /rotation/);
      assert.equal((await call('PUT', `/webhook-endpoints/${ep.id}`, { body: 'url=x', type: 'text/plain' })).statusCode, 415);
    });

    test('PATCH: merge patch and JSON Patch, If-Match → 412, enabled toggles; DELETE → 204, then 404', async () => {
      const ep = await create({ url: 'https://example.com/patch', headers: { 'x-a': '1', 'x-b': '2' } });
      const merge = 'application/merge-patch+json';
      const off = await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: { enabled: false, headers: { 'x-a': null } }, type: merge });
      assert.equal(off.statusCode, 200, off.body);
      assert.equal(off.json().enabled, false);
      assert.deepEqual(off.json().headers, { 'x-b': '2' });
      assert.equal(off.json().version, 2);
      const stale = await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: { enabled: true }, type: merge, headers: { 'if-match': '"1.ep"' } });
      assert.equal(stale.statusCode, 412);
      const on = await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: [{ op: 'test', path: '/enabled', value: false }, { op: 'replace', path: '/enabled', value: true }], type: 'application/json-patch+json', headers: { 'if-match': String(off.headers.etag) } });
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.json().enabled, true);
      const failedTest = await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: [{ op: 'test', path: '/enabled', value: false }], type: 'application/json-patch+json' });
      assert.equal(failedTest.statusCode, 409);
      const bad = await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: { url: 'ftp://example.com', eventTypes: [] }, type: merge });
      assert.deepEqual(errorsOf(bad), ['/eventTypes', '/url']);
      assert.equal((await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: { secret: 'whsec_x' }, type: merge })).statusCode, 422);
      assert.equal((await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: { enabled: true }, type: 'application/json' })).statusCode, 415);
      assert.equal((await call('PATCH', '/webhook-endpoints/ep_nothing', { body: { enabled: true }, type: merge })).statusCode, 404);
      assert.equal((await call('DELETE', `/webhook-endpoints/${ep.id}`, { headers: { 'if-match': '"1.ep"' } })).statusCode, 412);
      assert.equal((await call('DELETE', `/webhook-endpoints/${ep.id}`)).statusCode, 204);
      assert.equal((await call('DELETE', `/webhook-endpoints/${ep.id}`)).statusCode, 404);
      assert.equal((await call('GET', `/webhook-endpoints/${ep.id}`)).statusCode, 404);
    });

    test('bad input is a 422 naming each member, never a 5xx, and nothing is created', async () => {
      const count = async () => {
        let n = 0;
        let url = '/webhook-endpoints?limit=100';
        for (;;) {
          const page = (await call('GET', url)).json();
          n += page.count;
          if (!page._links.next) return n;
          url = page._links.next.href;
        }
      };
      const before = await count();
      const cases: Array<[unknown, string[]]> = [
        [{}, ['/url']],
        [{ url: 'not a url' }, ['/url']],
        [{ url: 'ftp://example.com/x' }, ['/url']],
        [{ url: 'https://user:pw@example.com/x' }, ['/url']],
        [{ url: 'http://10.0.0.1/hook' }, ['/url']],
        [{ url: 'http://169.254.169.254/latest' }, ['/url']],
        [{ url: 'http://[::1]:8080/' }, ['/url']],
        [{ url: 'https://example.com', secret: 'shh' }, ['/secret']],
        [{ url: 'https://example.com', secret: 'whsec_c2hvcnQ=' }, ['/secret']],
        [{ url: 'https://example.com', secret: 42 }, ['/secret']],
        [{ url: 'https://example.com', eventTypes: ['nope.*'] }, ['/eventTypes/0']],
        [{ url: 'https://example.com', eventTypes: ['characters..created', 7] }, ['/eventTypes/0', '/eventTypes/1']],
        [{ url: 'https://example.com', eventTypes: 'characters.*' }, ['/eventTypes']],
        [{ url: 'https://example.com', eventTypes: [] }, ['/eventTypes']],
        [{ url: 'https://example.com', headers: { 'webhook-id': 'x' } }, ['/headers/webhook-id']],
        [{ url: 'https://example.com', headers: { Host: 'evil' } }, ['/headers/Host']],
        [{ url: 'https://example.com', headers: { 'x-n': 5 } }, ['/headers/x-n']],
        [{ url: 'https://example.com', headers: { 'x-n': 'a\r\nb' } }, ['/headers/x-n']],
        [{ url: 'https://example.com', headers: { 'bad name': 'x' } }, ['/headers/bad name']],
        [{ url: 'https://example.com', headers: { 'X-A': '1', 'x-a': '2' } }, ['/headers/x-a']],
        [{ url: 'https://example.com', headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, 'v'])) }, ['/headers']],
        [{ url: 'https://example.com', headers: { 'x-long': 'v'.repeat(1025) } }, ['/headers/x-long']],
        [{ url: 'https://example.com', headers: ['x'] }, ['/headers']],
        [{ url: 'https://example.com', rateLimit: { limit: 0, window: 'soon' } }, ['/rateLimit/limit', '/rateLimit/window']],
        [{ url: 'https://example.com', rateLimit: { limit: 1e400, window: '99999999999999999999d' } }, ['/rateLimit/limit', '/rateLimit/window']],
        [{ url: 'https://example.com', rateLimit: 5 }, ['/rateLimit']],
        [{ url: 'https://example.com', description: 'x'.repeat(501) }, ['/description']],
        [{ url: 'https://example.com', enabled: 'yes' }, ['/enabled']],
        [{ url: 'https://example.com', colour: 'red' }, ['/colour']],
        [[{ url: 'https://example.com' }], ['']],
      ];
      for (const [body, pointers] of cases) {
        const res = await call('POST', '/webhook-endpoints', { body: JSON.stringify(body).replace('1e+400', '1e400') });
        assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        assert.deepEqual(errorsOf(res), pointers, JSON.stringify(body));
      }
      const privateUrl = await call('POST', '/webhook-endpoints', { body: { url: 'http://10.0.0.1/hook' } });
      assert.match(privateUrl.json().errors[0].detail, /private.*webhooks\.outbound\.allowNetworks/);
      assert.equal((await call('POST', '/webhook-endpoints', { body: '{"url": ' })).statusCode, 400);
      assert.equal((await call('POST', '/webhook-endpoints', { body: 'url=x', type: 'text/plain' })).statusCode, 415);
      assert.equal(await count(), before, 'nothing was created');
      // Loopback is let through here only because allowNetworks names it.
      assert.equal((await call('POST', '/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook' } })).statusCode, 201);
      const strict = await testServer(engine, PUBLIC_DEMO);
      try {
        const refused = await strict.app.inject({ method: 'POST', url: '/webhook-endpoints', headers: { ...(await bearer(strict)), ...json }, payload: { url: 'http://127.0.0.1:9/hook' } });
        assert.equal(refused.statusCode, 422);
        assert.match(refused.json().errors[0].detail, /loopback/);
      } finally {
        await strict.close();
      }
    });

    test('401 without a token, 403 with one lacking the scope; webhooks:read reads but does not write', async () => {
      const none = await server.app.inject({ method: 'GET', url: '/webhook-endpoints' });
      assert.equal(none.statusCode, 401);
      assert.match(String(none.headers['www-authenticate']), /^Bearer/);
      const writer = await bearer(server, ['characters:write']);
      const forbidden = await call('GET', '/webhook-endpoints', { headers: writer });
      assert.equal(forbidden.statusCode, 403);
      assert.match(String(forbidden.headers['www-authenticate']), /webhooks:read/);
      const reader = await bearer(server, ['webhooks:read']);
      assert.equal((await call('GET', '/webhook-endpoints', { headers: reader })).statusCode, 200);
      assert.equal((await call('POST', '/webhook-endpoints', { headers: reader, body: { url: 'https://example.com' } })).statusCode, 403);
      const hooks = await bearer(server, ['webhooks:read', 'webhooks:write']);
      assert.equal((await call('POST', '/webhook-endpoints', { headers: hooks, body: { url: 'https://example.com/scoped' } })).statusCode, 201);
    });

    test('rotation: a new secret once; GET shows both, the old one expiring after the overlap; 0s retires it at once', async () => {
      const ep = await create({ url: 'https://example.com/rotate' });
      const rotated = await call('POST', `/webhook-endpoints/${ep.id}/secrets`, { body: {} });
      assert.equal(rotated.statusCode, 201, rotated.body);
      assert.equal(rotated.headers['cache-control'], 'no-store');
      const secret = rotated.json().secret;
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, ep.secret);
      const shown = (await call('GET', `/webhook-endpoints/${ep.id}`)).json();
      assert.equal(shown.secret, undefined);
      assert.equal(shown.secrets.length, 2);
      assert.equal(shown.secrets[0].expiresAt, null, 'the new one first, not expiring');
      const ends = Date.parse(shown.secrets[1].expiresAt) - Date.now();
      assert.ok(ends > 23 * 3600_000 && ends <= 24 * 3600_000, `the old one ends in about 24h (${ends} ms)`);
      assert.ok(ep.secret.startsWith(shown.secrets[1].hint.replace('…', '')));
      const short = await call('POST', `/webhook-endpoints/${ep.id}/secrets`, { body: { overlap: '1h' }, headers: { 'if-match': String(rotated.headers.etag) } });
      assert.equal(short.statusCode, 201, short.body);
      const three = (await call('GET', `/webhook-endpoints/${ep.id}`)).json().secrets;
      assert.equal(three.length, 3);
      assert.ok(Date.parse(three[1].expiresAt) - Date.now() <= 3600_000, 'the overlap asked for');
      assert.equal((await call('POST', `/webhook-endpoints/${ep.id}/secrets`, { body: {}, headers: { 'if-match': String(rotated.headers.etag) } })).statusCode, 412);
      const given = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
      const now = await call('POST', `/webhook-endpoints/${ep.id}/secrets`, { body: { secret: given, overlap: '0s' } });
      assert.equal(now.json().secret, given);
      assert.deepEqual(now.json().secrets.map((s: { expiresAt: unknown }) => s.expiresAt), [null]);
      const again = await call('POST', `/webhook-endpoints/${ep.id}/secrets`, { body: { secret: given } });
      assert.deepEqual(errorsOf(again), ['/secret']);
      assert.deepEqual(errorsOf(await call('POST', `/webhook-endpoints/${ep.id}/secrets`, { body: { overlap: '99d', secret: 'x', other: 1 } })), ['/other', '/overlap', '/secret']);
      assert.equal((await call('POST', '/webhook-endpoints/ep_nothing/secrets', { body: {} })).statusCode, 404);
    });

    test('deliveries: a change is delivered, signed with both secrets during an overlap; list, read, attempts, 404s', async () => {
      hook.status = 200;
      const ep = await create({ url: hook.url, eventTypes: ['characters.created'], headers: { authorization: 'Bearer receiver-token' } });
      const rotated = (await call('POST', `/webhook-endpoints/${ep.id}/secrets`, { body: {} })).json();
      const homer = await server.app.inject({ method: 'POST', url: '/characters', headers: json, payload: { name: `Homer ${engine.name}` } });
      assert.equal(homer.statusCode, 201);
      await server.app.inject({ method: 'PATCH', url: `/characters/${homer.json().id}`, headers: { 'content-type': 'application/merge-patch+json' }, payload: { number: '1' } });
      const base = `/webhook-endpoints/${ep.id}/deliveries`;
      let delivery: any;
      await until(async () => {
        delivery = (await call('GET', `${base}?status=delivered`)).json()._embedded.deliveries[0];
        return delivery !== undefined;
      }, 'the delivery');
      assert.equal(delivery.eventType, 'characters.created');
      assert.equal(delivery.attempts, 1);
      assert.equal(delivery.lastStatusCode, 200);
      assert.equal(delivery._links.event.href, `/events/${delivery.eventId}`);
      const got = hook.requests.find((r) => r.headers['webhook-id'] === delivery.eventId)!;
      assert.ok(got, 'the receiver got it');
      assert.equal(got.headers.authorization, 'Bearer receiver-token');
      for (const secret of [ep.secret, rotated.secret]) new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
      assert.equal(JSON.parse(got.body).type, 'characters.created');
      const all = (await call('GET', base)).json();
      assert.deepEqual(all._embedded.deliveries.map((d: any) => d.eventType), ['characters.created'], 'updates are filtered out');
      assert.equal((await call('GET', `${base}?eventType=characters.updated`)).json().count, 0);
      assert.equal((await call('GET', `${base}?status=lost`)).statusCode, 400);
      assert.equal((await call('GET', `${base}?cursor=forged`)).statusCode, 400);
      const one = await call('GET', `${base}/${delivery.id}`);
      assert.equal(one.statusCode, 200);
      assert.equal(one.json().status, 'delivered');
      const attempts = (await call('GET', `${base}/${delivery.id}/attempts`)).json();
      assert.equal(attempts.count, 1);
      assert.deepEqual(
        { ...attempts._embedded.attempts[0], startedAt: 0, latencyMs: 0, node: 0 },
        { number: 1, trigger: 'automatic', startedAt: 0, statusCode: 200, latencyMs: 0, responseExcerpt: 'answered 200', error: null, node: 0, _links: { self: { href: `${base}/${delivery.id}/attempts/1` }, delivery: { href: `${base}/${delivery.id}` } } },
      );
      assert.equal((await call('GET', `${base}/${delivery.id}/attempts/1`)).json().number, 1);
      const noAttempt = await call('GET', `${base}/${delivery.id}/attempts/99`);
      assert.equal(noAttempt.statusCode, 404);
      assert.match(noAttempt.json().detail, /has no attempt 99/);
      const noDelivery = await call('GET', `${base}/msg_nothing`);
      assert.equal(noDelivery.statusCode, 404);
      assert.match(noDelivery.json().detail, new RegExp(`webhook endpoint ${ep.id} has no delivery msg_nothing`));
      assert.equal((await call('GET', `/webhook-endpoints/ep_nothing/deliveries/${delivery.id}`)).statusCode, 404);
      assert.equal((await call('GET', '/webhook-endpoints/ep_nothing/deliveries')).statusCode, 404);
      assert.equal((await call('GET', `${base}/${delivery.id}/attempts`, { headers: await bearer(server, ['characters:write']) })).statusCode, 403);

      // Redelivery: one manual attempt, made now and answered with.
      const before = hook.requests.length;
      const again = await call('POST', `${base}/${delivery.id}/attempts`);
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(again.json().trigger, 'manual');
      assert.equal(again.json().number, 2);
      assert.equal(again.headers.location, `${base}/${delivery.id}/attempts/2`);
      assert.equal(again.json().delivery.attempts, 2);
      assert.equal(hook.requests.length, before + 1);
      assert.equal(hook.requests.at(-1)!.headers['webhook-id'], delivery.eventId, 'the same webhook-id on every attempt');
      assert.equal((await call('POST', `${base}/msg_nothing/attempts`)).statusCode, 404);
    });

    test('credential headers are sealed at rest, shown as [redacted], kept by a PUT of the GET body, and sent in clear', async () => {
      hook.status = 200;
      const ep = await create({ url: hook.url, eventTypes: ['characters.created'], headers: { 'X-Api-Key': 'key-in-header-123', 'x-tenant': 'blue' } });
      assert.deepEqual(ep.headers, { 'X-Api-Key': '[redacted]', 'x-tenant': 'blue' });
      const stored = (await server.store.outbox.getEndpoint(ep.id))!;
      assert.ok(!JSON.stringify(stored).includes('key-in-header-123'), 'not stored in clear');
      const read = await call('GET', `/webhook-endpoints/${ep.id}`);
      assert.equal(read.json().headers['X-Api-Key'], '[redacted]');
      const etag = String(read.headers.etag);
      const same = await call('PUT', `/webhook-endpoints/${ep.id}`, { body: read.json(), headers: { 'if-match': etag } });
      assert.equal(same.headers.etag, etag, '[redacted] keeps the stored value: no change');
      const patched = await call('PATCH', `/webhook-endpoints/${ep.id}`, { body: { description: 'sealed' }, type: 'application/merge-patch+json' });
      assert.equal(patched.statusCode, 200, patched.body);
      await server.app.inject({ method: 'POST', url: '/characters', headers: json, payload: { name: `Sealed ${engine.name}` } });
      // Other tests' endpoints deliver to the same receiver: this one's requests carry its x-tenant.
      const mine = () => hook.requests.find((r) => r.headers['x-tenant'] === 'blue' && JSON.parse(r.body).data?.name === `Sealed ${engine.name}`);
      await until(() => mine() !== undefined, 'the delivery');
      const got = mine()!;
      assert.equal(got.headers['x-api-key'], 'key-in-header-123', 'the receiver gets the value itself');
      assert.equal(got.headers['x-tenant'], 'blue');
      const bad = await call('POST', '/webhook-endpoints', { body: { url: hook.url, headers: { authorization: '[redacted]', 'x-a': 'rw-sealed:v1.abc.def' } } });
      assert.equal(bad.statusCode, 422);
      assert.deepEqual(errorsOf(bad), ['/headers/authorization', '/headers/x-a']);
    });

    test('a redelivery while another attempt is under way is 409', async () => {
      hook.status = 200;
      const ep = await create({ url: hook.url, eventTypes: ['characters.created'] });
      await server.app.inject({ method: 'POST', url: '/characters', headers: json, payload: { name: `Marge ${engine.name}` } });
      const base = `/webhook-endpoints/${ep.id}/deliveries`;
      let id = '';
      await until(async () => {
        id = (await call('GET', `${base}?status=delivered`)).json()._embedded.deliveries[0]?.id ?? '';
        return id !== '';
      }, 'the delivery');
      // The receiver holds its answer to the first attempt until the second request has been answered.
      let release!: () => void;
      hook.hold = new Promise((resolve) => (release = resolve));
      try {
        const seen = hook.requests.length;
        const first = call('POST', `${base}/${id}/attempts`);
        await until(() => hook.requests.length > seen, 'the first attempt to reach the receiver');
        const b = await call('POST', `${base}/${id}/attempts`);
        release();
        const a = await first;
        assert.deepEqual([a.statusCode, b.statusCode], [201, 409], `${a.body} ${b.body}`);
        assert.equal(b.json().type.endsWith('/problems/webhook-delivery-busy'), true);
        assert.match(b.json().detail, /under way/);
      } finally {
        release();
        hook.hold = undefined;
      }
    });

    test('replays: 202 with what was queued; since is required, an RFC 3339 time, not in the future', async () => {
      hook.status = 500;
      const ep = await create({ url: hook.url, eventTypes: ['characters.created'] });
      const since = new Date(Date.now() - 1000).toISOString();
      await server.app.inject({ method: 'POST', url: '/characters', headers: json, payload: { name: `Bart ${engine.name}` } });
      const base = `/webhook-endpoints/${ep.id}/deliveries`;
      // Recorded, not only claimed: a delivery leased to an attempt under way is not queued again.
      await until(async () => (await call('GET', base)).json()._embedded.deliveries[0]?.lastStatusCode === 500, 'the first attempt to fail');
      hook.status = 200;
      const res = await call('POST', `/webhook-endpoints/${ep.id}/replays`, { body: { since } });
      assert.equal(res.statusCode, 202, res.body);
      assert.deepEqual({ ...res.json(), _links: undefined }, { queued: 1, since, failedOnly: false, enabled: true, _links: undefined });
      await until(async () => (await call('GET', base)).json()._embedded.deliveries[0]?.status === 'delivered', 'the replayed delivery');
      const failed = await call('POST', `/webhook-endpoints/${ep.id}/replays`, { body: { since, failedOnly: true } });
      assert.equal(failed.json().queued, 0, 'nothing failed');
      for (const body of [{}, { since: 'yesterday' }, { since: '2026-13-45T00:00:00Z' }, { since: new Date(Date.now() + 3600_000).toISOString() }]) {
        assert.deepEqual(errorsOf(await call('POST', `/webhook-endpoints/${ep.id}/replays`, { body })), ['/since'], JSON.stringify(body));
      }
      assert.deepEqual(errorsOf(await call('POST', `/webhook-endpoints/${ep.id}/replays`, { body: { since, failedOnly: 'yes', x: 1 } })), ['/failedOnly', '/x']);
      assert.equal((await call('POST', `/webhook-endpoints/${ep.id}/replays`, { body: 'since=now', type: 'text/plain' })).statusCode, 415);
      assert.equal((await call('POST', '/webhook-endpoints/ep_nothing/replays', { body: { since } })).statusCode, 404);
    });

    test('every exchange above conforms to /openapi.json', async () => {
      const doc = (await server.app.inject({ url: '/openapi.json' })).json();
      const checker = await ConformanceChecker.create(doc);
      const mine = exchanges.filter((ex) => ex.url.startsWith('/webhook-endpoints'));
      assert.ok(mine.length > 100);
      const violations = (await Promise.all(mine.map((ex) => checker.check(ex)))).flat();
      assert.deepEqual(violations, [], violations.join('\n'));
    });
  });
}
