import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createServer, type RestwellServer } from '../../src/app/server.js';
import { ConfigError, resolveConfig } from '../../src/config/load.js';
import { engines } from '../../src/test-support/test-server.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { parseJson } from '../../src/webhooks/inbound/payload/parse-payload.js';
import { PayloadError, PROVIDERS, type ProviderDescriptor } from '../../src/webhooks/inbound/providers/index.js';
import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';

// Adding a provider is one file with its descriptor and one line in the list: this file is that
// file, and the test's list is the registry's plus this provider.

/** A made-up pager service: JSON pages behind a shared token, answered in plain text. */
const pager: ProviderDescriptor = {
  name: 'pager',
  kind: 'sms',
  schemes: ['header'],
  contentTypes: ['application/json'],
  normalize: (_contentType, rawBody, maxDepth) => {
    const body = parseJson(rawBody, 'pager', maxDepth) as { page?: { id?: string; from?: string; to?: string; message?: string } };
    const page = body?.page;
    if (!page?.from) throw new PayloadError('a page needs page.from', 'pager');
    return { kind: 'sms', sms: { from: page.from, to: page.to ?? '', text: page.message ?? '', messageId: page.id ?? null } };
  },
  eventId: (_headers, payload) => (payload as { page?: { id?: string } } | undefined)?.page?.id,
  sample: ({ text }) => ({
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify({ page: { id: `pg_${Date.now()}`, from: '+15550100', to: '+15550199', message: text ?? 'who is homer?' } })),
  }),
  reply: { contentType: 'text/plain; charset=utf-8', body: (text) => text ?? '', description: 'The reply, as plain text' },
  rejection: 'webhook-rejected',
};

const providers = [...PROVIDERS, pager];
const TOKEN = 'pager-shared-token';

const CONFIG = {
  resources: {
    people: { fields: { name: { type: 'string', required: true }, number: { type: 'string' } }, access: { read: 'public', write: 'public' } },
    pages: { fields: { from: { type: 'string' }, text: { type: 'string' } }, access: { read: 'public', write: 'public' } },
  },
  webhooks: {
    sources: {
      pages: {
        provider: 'pager',
        verify: { header: 'x-pager-token', secret: TOKEN },
        actions: [{ store: 'pages', map: { from: 'from', text: 'text' } }, { reply: { lookup: 'people', by: 'name', template: '{name}: {number}' } }],
      },
    },
  },
};

const page = (id: string, message: string, from = '+15550100') => JSON.stringify({ page: { id, from, to: '+15550199', message } });

for (const engine of engines) {
  describe(`a provider added by one descriptor (${engine.name})`, () => {
    let server: RestwellServer;
    const post = (payload: string, headers: Record<string, string> = { 'x-pager-token': TOKEN }) =>
      server.app.inject({ method: 'POST', url: '/webhooks/pages', headers: { 'content-type': 'application/json', ...headers }, payload });

    before(async () => {
      const config = resolveConfig(CONFIG, { env: {}, overrides: { database: engine.freshUrl() } });
      server = await createServer(config, { logger: false, providers });
      await server.app.inject({ method: 'POST', url: '/people', headers: { 'content-type': 'application/json' }, payload: { name: 'Homer', number: '+1 555 0100' } });
    });
    after(() => server?.close());

    test('a delivery is verified, answered in the reply format, normalized and stored as the descriptor says', async () => {
      const res = await post(page('pg_1', 'who is homer?'));
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.equal(res.body, 'Homer: +1 555 0100');
      const records = await waitFor(async () => {
        const list = (await server.app.inject({ method: 'GET', url: '/pages' })).json();
        const stored = list._embedded?.pages ?? [];
        return stored.length ? stored : undefined;
      }, 'the page to be stored');
      assert.deepEqual(records.map((r: { from: string; text: string }) => [r.from, r.text]), [['+15550100', 'who is homer?']]);
    });

    test('its event-id rule de-duplicates redeliveries, its scheme refuses a wrong token, its content types are enforced', async () => {
      const first = await post(page('pg_2', 'who is homer'));
      const again = await post(page('pg_2', 'who is homer'));
      assert.equal(again.body, first.body);
      const key = (await server.app.restwell.auth.apiKeys.create({ name: 'admin', scopes: ['*'] })).key;
      const inbox = (await server.app.inject({ method: 'GET', url: '/webhooks/pages/events?limit=100', headers: { authorization: `Bearer ${key}` } })).json();
      assert.equal(inbox._embedded.deliveries.filter((d: { eventId: string }) => d.eventId === 'pg_2').length, 1);
      assert.equal((await post(page('pg_3', 'x'), { 'x-pager-token': 'wrong' })).statusCode, 401);
      const form = await server.app.inject({ method: 'POST', url: '/webhooks/pages', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-pager-token': TOKEN }, payload: 'a=1' });
      assert.equal(form.statusCode, 415);
      assert.match(form.json().detail, /^pager sends application\/json/);
    });

    test('a payload it cannot read is refused with its rejection status', async () => {
      const res = await post(JSON.stringify({ page: { id: 'pg_4' } }));
      assert.equal(res.statusCode, 403);
      assert.match(res.json().detail, /page\.from/);
    });

    test('`hooks send` builds and signs its sample', async () => {
      const sample = sampleRequest('pages', CONFIG.webhooks.sources.pages, 'http://localhost', { text: 'who is homer?' }, providers);
      const res = await server.app.inject({ method: 'POST', url: new URL(sample.url).pathname, headers: sample.headers, payload: sample.body });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.body, 'Homer: +1 555 0100');
    });
  });
}

test('without the provider in the list, a source naming it is refused before the database is opened', async () => {
  const config = resolveConfig(CONFIG, { env: {}, overrides: { database: '/nonexistent/dir/never-created.db' } }, 'pager.yaml');
  await assert.rejects(createServer(config, { logger: false }), (err: unknown) => {
    assert.ok(err instanceof ConfigError);
    assert.match(err.message, /\(pager\.yaml\)/);
    assert.match(err.problems[0]!, /^webhooks\.sources\.pages\.provider: unknown provider "pager"; known: postmark, /);
    return true;
  });
});
