import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startDnsServer, type TestDnsServer } from '../../test-support/dns-server.js';
import { generateEndpointSecret } from './secrets.js';
import { USER_AGENT, WebhookSender } from './sender.js';
import type { OutboundConfig } from '../../config/types.js';

interface Seen {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on a real socket that records requests and answers with `reply`. */
async function receiver(reply: (res: ServerResponse, seen: Seen) => void = (res) => res.writeHead(204).end(), host = '127.0.0.1') {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      reply(res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const base: Pick<OutboundConfig, 'connectTimeoutMs' | 'timeoutMs' | 'allowNetworks' | 'dnsServers'> = {
  connectTimeoutMs: 2000,
  timeoutMs: 3000,
  allowNetworks: ['127.0.0.1', '::1'],
  dnsServers: [],
};

const body = JSON.stringify({ id: 'evt_1', type: 'characters.created', data: { name: 'Homer' } });

describe('WebhookSender', () => {
  const secret = generateEndpointSecret();
  let sender: WebhookSender;
  before(() => {
    sender = new WebhookSender({ settings: base });
  });
  after(() => sender.close());

  it('delivers a request the standardwebhooks library verifies, with the custom headers', async () => {
    const r = await receiver((res, seen) => {
      const payload = new Webhook(secret).verify(seen.body, seen.headers as Record<string, string>);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: payload }));
    });
    try {
      const result = await sender.send({ url: `http://127.0.0.1:${r.port}/hooks?x=1`, headers: { 'X-Tenant': 'acme', host: 'evil.example', 'webhook-id': 'forged' }, secrets: [secret], id: 'evt_1', body });
      assert.equal(result.error, null);
      assert.equal(result.ok, true);
      assert.equal(result.statusCode, 200);
      assert.equal(result.blocked, false);
      assert.deepEqual(JSON.parse(result.responseExcerpt!), { received: JSON.parse(body) });
      const h = r.seen[0]!.headers;
      assert.equal(h['x-tenant'], 'acme');
      assert.equal(h['webhook-id'], 'evt_1');
      assert.equal(h.host, `127.0.0.1:${r.port}`);
      assert.equal(h['content-type'], 'application/json');
      assert.equal(h['user-agent'], USER_AGENT);
      assert.match(USER_AGENT, /^Restwell-Webhooks\/\d+\.\d+\.\d+/);
      assert.equal(r.seen[0]!.body, body);
    } finally {
      await r.close();
    }
  });

  it('signs with each secret during a rotation, and either secret verifies', async () => {
    const next = generateEndpointSecret();
    const r = await receiver();
    try {
      const result = await sender.send({ url: `http://127.0.0.1:${r.port}/`, headers: {}, secrets: [secret, next], id: 'evt_2', body });
      assert.equal(result.ok, true);
      const h = r.seen[0]!.headers as Record<string, string>;
      assert.equal(h['webhook-signature']!.split(' ').length, 2);
      for (const s of [secret, next]) assert.deepEqual(new Webhook(s).verify(r.seen[0]!.body, h), JSON.parse(body));
    } finally {
      await r.close();
    }
  });

  it('keeps at most 1 KiB of the response body', async () => {
    const r = await receiver((res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('é'.repeat(200_000)));
    try {
      const result = await sender.send({ url: `http://127.0.0.1:${r.port}/`, headers: {}, secrets: [secret], id: 'evt_3', body });
      assert.equal(result.ok, false);
      assert.equal(result.statusCode, 500);
      assert.match(result.error!, /HTTP 500/);
      assert.ok(Buffer.byteLength(result.responseExcerpt!) <= 1024);
      assert.equal(result.responseExcerpt, 'é'.repeat(512));
    } finally {
      await r.close();
    }
  });

  it('reports a timeout when the receiver does not answer in time', async () => {
    const quick = new WebhookSender({ settings: { ...base, timeoutMs: 200 } });
    const r = await receiver(() => undefined);
    try {
      const result = await quick.send({ url: `http://127.0.0.1:${r.port}/`, headers: {}, secrets: [secret], id: 'evt_4', body });
      assert.equal(result.ok, false);
      assert.equal(result.statusCode, null);
      assert.match(result.error!, /no complete response within 200 ms/);
      assert.equal(result.blocked, false);
    } finally {
      await quick.close();
      await r.close();
    }
  });

  it('reports a refused connection', async () => {
    const r = await receiver();
    await r.close();
    const result = await sender.send({ url: `http://127.0.0.1:${r.port}/`, headers: {}, secrets: [secret], id: 'evt_5', body });
    assert.equal(result.ok, false);
    assert.match(result.error!, /connection refused by 127\.0\.0\.1:\d+/);
    assert.equal(result.blocked, false);
  });

  it('does not follow a redirect, and says where it pointed', async () => {
    const target = await receiver();
    const redirector = await receiver((res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end());
    try {
      const result = await sender.send({ url: `http://127.0.0.1:${redirector.port}/`, headers: {}, secrets: [secret], id: 'evt_6', body });
      assert.equal(result.ok, false);
      assert.equal(result.statusCode, 302);
      assert.match(result.error!, new RegExp(`redirect to http://127\\.0\\.0\\.1:${target.port}/elsewhere not followed`));
      assert.equal(redirector.seen.length, 1);
      assert.equal(target.seen.length, 0);
    } finally {
      await target.close();
      await redirector.close();
    }
  });

  it('reports a name that does not resolve', async () => {
    const dns = await startDnsServer({});
    const s = new WebhookSender({ settings: { ...base, dnsServers: [dns.address] } });
    try {
      const result = await s.send({ url: 'http://nowhere.test/', headers: {}, secrets: [secret], id: 'evt_7', body });
      assert.equal(result.ok, false);
      assert.match(result.error!, /nowhere\.test: no such host/);
      assert.equal(result.blocked, false);
    } finally {
      await s.close();
      await dns.close();
    }
  });
});

describe('WebhookSender SSRF guard', () => {
  const secret = generateEndpointSecret();
  let dns: TestDnsServer;
  let v4: Awaited<ReturnType<typeof receiver>>;
  let v6: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    v4 = await receiver();
    v6 = await receiver(undefined, '::1');
    dns = await startDnsServer({ 'internal.test': ['10.1.2.3'], 'local.test': ['127.0.0.1'], 'mixed.test': ['127.0.0.1', '10.1.2.3'] });
  });
  after(async () => {
    await v4.close();
    await v6.close();
    await dns.close();
  });

  const guarded = (allowNetworks: string[] = []) => new WebhookSender({ settings: { ...base, connectTimeoutMs: 500, allowNetworks, dnsServers: [dns.address] } });

  it('refuses loopback, metadata and private targets without an allow-list, and the receiver sees nothing', async () => {
    const s = guarded();
    try {
      const cases: Array<[string, RegExp]> = [
        [`http://127.0.0.1:${v4.port}/`, /^127\.0\.0\.1 is a loopback address; deliveries to loopback addresses are refused \(webhooks\.outbound\.allowNetworks\)$/],
        [`http://[::1]:${v6.port}/`, /^::1 is a loopback address/],
        ['http://169.254.169.254/latest/meta-data/', /^169\.254\.169\.254 is a cloud metadata address/],
        [`http://internal.test:${v4.port}/`, /^internal\.test resolves to 10\.1\.2\.3, a private address; deliveries to private networks are refused \(webhooks\.outbound\.allowNetworks\)$/],
        [`http://local.test:${v4.port}/`, /^local\.test resolves to 127\.0\.0\.1, a loopback address/],
        [`http://[::ffff:127.0.0.1]:${v4.port}/`, /loopback/],
      ];
      for (const [url, error] of cases) {
        const result = await s.send({ url, headers: {}, secrets: [secret], id: 'evt', body });
        assert.equal(result.ok, false, url);
        assert.equal(result.blocked, true, url);
        assert.equal(result.statusCode, null, url);
        assert.match(result.error!, error, url);
      }
      assert.equal(v4.seen.length, 0);
      assert.equal(v6.seen.length, 0);
    } finally {
      await s.close();
    }
  });

  it('refuses a name when any of its addresses is refused, even if another is allowed', async () => {
    const s = guarded(['127.0.0.1']);
    try {
      const result = await s.send({ url: `http://mixed.test:${v4.port}/`, headers: {}, secrets: [secret], id: 'evt', body });
      assert.equal(result.blocked, true);
      assert.match(result.error!, /10\.1\.2\.3, a private address/);
      assert.equal(v4.seen.length, 0);
    } finally {
      await s.close();
    }
  });

  it('lets allowNetworks through, by address and by name', async () => {
    const s = guarded(['127.0.0.0/8', '::1']);
    try {
      for (const url of [`http://127.0.0.1:${v4.port}/`, `http://local.test:${v4.port}/`, `http://[::1]:${v6.port}/`]) {
        const result = await s.send({ url, headers: {}, secrets: [secret], id: 'evt', body });
        assert.equal(result.error, null, url);
        assert.equal(result.ok, true, url);
      }
      assert.equal(v4.seen.length, 2);
      assert.equal(v4.seen[1]!.headers.host, `local.test:${v4.port}`);
      assert.equal(v6.seen.length, 1);
    } finally {
      await s.close();
    }
  });
});
