import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RestwellServer } from '../../src/app/server.js';
import { bearer, engines, PUBLIC_DEMO, TEST_DEMO_SECRETS, testServer } from '../../src/test-support/test-server.js';
import { samplePostmarkEmail } from '../../src/webhooks/inbound/providers/index.js';
import { signBasicAuth } from '../../src/webhooks/inbound/verifiers/index.js';

/*
 * Every list ends: `next` is there only while more entries exist now, so "follow next until it is
 * absent" stops (it used to run for ever: an empty page's next pointed to itself). A log that
 * readers tail (the event log, the inbox, an endpoint's deliveries) also carries `poll`, always:
 * the place to ask later for what was added since.
 */

const CONFIG = { ...PUBLIC_DEMO, webhooks: { ...PUBLIC_DEMO.webhooks, outbound: { allowNetworks: ['127.0.0.1'], pollInterval: '50ms', retrySchedule: ['30s'], timeout: '5s' } } };
const json = { 'content-type': 'application/json' };
const mailAuth = signBasicAuth(TEST_DEMO_SECRETS.MAIL_HOOK_USER, TEST_DEMO_SECRETS.MAIL_HOOK_PASSWORD);

/** Waits (bounded) until `check` returns something. */
async function until<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`timed out waiting for ${what}`);
}

for (const engine of engines) {
  describe(`every list ends (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    let hook: Server;
    let hookUrl = '';
    const get = async (url: string) => {
      const res = await server.app.inject({ method: 'GET', url, headers: admin });
      assert.equal(res.statusCode, 200, `GET ${url}: ${res.body}`);
      return { page: res.json(), link: String(res.headers.link ?? '') };
    };
    /** Follows `next` from `url` until it is absent; each page that has one must be full. */
    const walk = async (url: string, key: string, limit: number) => {
      const items: any[] = [];
      for (let pages = 0; ; pages++) {
        assert.ok(pages < 100, `${url}: next never ends`);
        const { page, link } = await get(url);
        items.push(...page._embedded[key]);
        if (!page._links.next) {
          assert.doesNotMatch(link, /rel="next"/, 'no next in the Link header either');
          return { items, last: page };
        }
        assert.equal(page.count, limit, 'a page with next is full');
        assert.match(link, /rel="next"/);
        url = page._links.next.href;
      }
    };

    before(async () => {
      server = await testServer(engine, CONFIG);
      admin = await bearer(server);
      hook = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
      await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
      hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    });
    after(async () => {
      await server.close();
      await new Promise((r) => hook.close(r));
    });

    /**
     * The rule, on one log: from the end, an empty page has neither next nor a next to itself,
     * only poll (itself); entries added later are found at poll; a full page at the end has no
     * next; walking from the start with next ends after every entry.
     */
    async function checkLog(path: string, key: string, add: () => Promise<void>): Promise<void> {
      const limit = 2;
      const start = await walk(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}`, key, limit);
      const poll = start.last._links.poll?.href as string;
      assert.ok(poll, 'a log page always carries poll');

      const { page: empty, link } = await get(poll);
      assert.equal(empty.count, 0, 'nothing new yet');
      assert.equal(empty._links.next, undefined, 'an empty page has no next (it used to point to itself)');
      assert.equal(empty._links.poll.href, empty._links.self.href, 'an empty page polls itself');
      assert.match(link, /rel="poll"/);

      await add();
      await add();
      const full = await until(async () => {
        const { page } = await get(poll);
        return page.count === limit ? page : undefined;
      }, `${limit} new entries at ${poll}`);
      assert.equal(full._links.next, undefined, 'a full page with nothing after it has no next');
      assert.notEqual(full._links.poll.href, poll, 'poll moves past what was read');

      await add();
      const later = await until(async () => {
        const { page } = await get(full._links.poll.href);
        return page.count === 1 ? page : undefined;
      }, `one more entry at ${full._links.poll.href}`);
      assert.equal(later._links.next, undefined);

      const all = await walk(`${path}${path.includes('?') ? '&' : '?'}limit=1`, key, 1);
      assert.equal(all.items.length, start.items.length + 3, 'walking from the start ends after every entry');
      const cursor = (href: string) => new URL(href, 'http://x').searchParams.get('cursor');
      assert.equal(cursor(all.last._links.poll.href), cursor(later._links.poll.href), 'and ends where polling goes on');
    }

    test('GET /events', async () => {
      let n = 0;
      await checkLog('/events?type=characters.created', 'events', async () => {
        assert.equal((await server.app.inject({ method: 'POST', url: '/characters', headers: json, payload: { name: `events ${n++}` } })).statusCode, 201);
      });
    });

    test('GET /webhooks/{source}/events (the inbox)', async () => {
      let n = 0;
      await checkLog('/webhooks/mail/events', 'deliveries', async () => {
        const mail = samplePostmarkEmail({ subject: `inbox ${n++}` });
        const res = await server.app.inject({ method: 'POST', url: '/webhooks/mail', headers: { 'content-type': mail.contentType, authorization: mailAuth }, payload: mail.body });
        assert.equal(res.statusCode, 200, res.body);
      });
    });

    test('GET /webhook-endpoints/{id}/deliveries (the delivery log)', async () => {
      const made = await server.app.inject({ method: 'POST', url: '/webhook-endpoints', headers: { ...admin, ...json }, payload: { url: hookUrl, eventTypes: ['characters.created'] } });
      assert.equal(made.statusCode, 201, made.body);
      let n = 0;
      await checkLog(`/webhook-endpoints/${made.json().id}/deliveries`, 'deliveries', async () => {
        assert.equal((await server.app.inject({ method: 'POST', url: '/characters', headers: json, payload: { name: `deliveries ${n++}` } })).statusCode, 201);
      });
    });

    test('GET /webhook-endpoints: next only while more exist, and no poll (it is no log)', async () => {
      const { items: before } = await walk('/webhook-endpoints?limit=100', 'webhook-endpoints', 100);
      // Make the count a multiple of 2, so the last page of 2 is full: it must still have no next.
      const wanted = before.length % 2 === 0 ? 2 : 1;
      for (let i = 0; i < wanted; i++) {
        assert.equal((await server.app.inject({ method: 'POST', url: '/webhook-endpoints', headers: { ...admin, ...json }, payload: { url: `${hookUrl}/${i}` } })).statusCode, 201);
      }
      const { items, last } = await walk('/webhook-endpoints?limit=2', 'webhook-endpoints', 2);
      assert.equal(items.length, before.length + wanted);
      assert.equal(last.count, 2, 'the last page is full');
      assert.equal(last._links.poll, undefined);
    });
  });
}
