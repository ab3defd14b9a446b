// The SSRF guard of outbound webhooks, end to end: a `restwell serve` child whose allowNetworks lets
// only 127.0.0.2 through (where the test's own receivers listen) must never reach a listener on
// 127.0.0.1 or ::1, whether the endpoint names it by IP (refused at create), by a DNS name (the test
// DNS server answers; refused at each attempt, logged) or through a redirect (never followed).
// The 10.x name is only ever resolved: the guard refuses it before any connection.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startDnsServer } from '../../src/test-support/dns-server.js';
import { engines } from '../../src/test-support/engines.js';
import {
  adminHeaders,
  allDeliveries,
  attemptsOf,
  createEndpoint,
  describeRequests,
  json,
  outboundConfig,
  startNode,
  startReceiver,
  startTrap,
  waitFor,
} from './outbound-support.js';

/** The pino JSON lines of a server's output. */
function logLines(output: string): any[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
}

for (const engine of engines) {
  test(`SSRF: loopback, metadata and private targets are refused at create or at each attempt, redirects are not followed, refusals are logged (${engine.name})`, { timeout: 120_000 }, async () => {
    // What must never be reached: listeners on this machine's loopback addresses.
    const trap4 = await startTrap('127.0.0.1');
    const trap6 = await startTrap('::1');
    // The receivers the server may reach: on 127.0.0.2, the one address allowNetworks lets through.
    const control = await startReceiver({ host: '127.0.0.2' });
    const redirector = await startReceiver({ host: '127.0.0.2', reply: () => ({ status: 302, headers: { location: `http://127.0.0.1:${trap4.port}/stolen` } }) });
    const dns = await startDnsServer({ 'internal.test': ['10.1.2.3'], 'local.test': ['127.0.0.1'], 'receiver.test': ['127.0.0.2'] });
    const node = await startNode(
      engine.freshUrl(),
      outboundConfig({ allowNetworks: ['127.0.0.2'], dnsServers: [dns.address], retrySchedule: ['200ms'], pollInterval: '100ms', connectTimeout: '1s', timeout: '3s' }),
      { LOG_LEVEL: 'warn' },
    );
    try {
      const auth = adminHeaders(node);

      // A literal private IP is refused at create, saying why.
      const literal: Array<[string, RegExp]> = [
        [`http://127.0.0.1:${trap4.port}/hook`, /127\.0\.0\.1.*loopback.*allowNetworks/],
        [`http://[::1]:${trap6.port}/hook`, /::1.*loopback.*allowNetworks/],
        ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254.*metadata/],
        [`http://[::ffff:127.0.0.1]:${trap4.port}/hook`, /loopback/],
        [`http://10.1.2.3:${trap4.port}/hook`, /10\.1\.2\.3.*private/],
      ];
      for (const [url, reason] of literal) {
        const res = await fetch(`${node.url}/webhook-endpoints`, { method: 'POST', headers: { ...json, ...auth }, body: JSON.stringify({ url }) });
        const text = await res.text();
        assert.equal(res.status, 422, `${url}: ${res.status} ${text}`);
        assert.match(String(res.headers.get('content-type')), /^application\/problem\+json/);
        assert.match(text, reason, url);
      }
      assert.equal(((await (await fetch(`${node.url}/webhook-endpoints`, { headers: auth })).json()) as any)._embedded['webhook-endpoints'].length, 0, 'no refused endpoint was stored');

      // Names are judged at each connection (their answers change), so these are created, then blocked.
      const internal = await createEndpoint(node.url, auth, { url: `http://internal.test:${trap4.port}/hook` });
      const local = await createEndpoint(node.url, auth, { url: `http://local.test:${trap4.port}/hook` });
      const redirect = await createEndpoint(node.url, auth, { url: redirector.url });
      const allowed = await createEndpoint(node.url, auth, { url: `http://receiver.test:${control.port}/hook` });
      redirector.secret = redirect.secret;
      control.secret = allowed.secret;

      // Changing an endpoint's URL to a literal loopback address is refused too.
      const patched = await fetch(`${node.url}/webhook-endpoints/${allowed.id}`, {
        method: 'PATCH',
        headers: { ...auth, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${trap4.port}/hook` }),
      });
      assert.equal(patched.status, 422, await patched.text());

      const item = await fetch(`${node.url}/items`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'x' }) });
      assert.equal(item.status, 201);

      // The allowed endpoint gets it (the guard is not simply refusing everything, and names resolve through the test DNS server).
      await waitFor(() => control.acceptedIds().size === 1, () => `the allowed endpoint got nothing: ${describeRequests(control)}\n${node.output()}`);

      /** The attempts made at the endpoint's one delivery, once there is one. */
      const attempted = (endpointId: string) =>
        waitFor(
          async () => {
            const [delivery] = await allDeliveries(node.url, auth, endpointId);
            if (!delivery) return undefined;
            const attempts = await attemptsOf(node.url, auth, endpointId, delivery.id);
            return attempts.length ? { delivery, attempts } : undefined;
          },
          () => `no attempt recorded for ${endpointId}\n${node.output()}`,
        );

      const blocked: Array<[string, RegExp]> = [
        [internal.id, /^internal\.test resolves to 10\.1\.2\.3, a private address; deliveries to private networks are refused \(webhooks\.outbound\.allowNetworks\)$/],
        [local.id, /^local\.test resolves to 127\.0\.0\.1, a loopback address/],
      ];
      for (const [id, reason] of blocked) {
        const { delivery, attempts } = await attempted(id);
        for (const a of attempts) {
          assert.equal(a.statusCode, null, JSON.stringify(a));
          assert.match(a.error, reason);
        }
        assert.notEqual(delivery.status, 'delivered');
        const again = await allDeliveries(node.url, auth, id);
        assert.match(again[0].lastError, reason);
      }

      const { attempts: redirected } = await attempted(redirect.id);
      assert.equal(redirected[0].statusCode, 302);
      assert.match(redirected[0].error, new RegExp(`redirect to http://127\\.0\\.0\\.1:${trap4.port}/stolen not followed`));
      assert.ok(redirector.requests.length >= 1);
      assert.deepEqual(redirector.unverified(), []);

      // Nothing reached the loopback listeners, not even a connection.
      assert.deepEqual(trap4.hits, []);
      assert.deepEqual(trap6.hits, []);
      assert.ok(dns.queries.includes('internal.test') && dns.queries.includes('local.test'), `the names were resolved by the configured DNS server: ${dns.queries}`);

      // Each refusal is in the server's log: a warning (pino JSON) naming the endpoint and the reason,
      // once the log's batch is written (within its 100 ms, later on a busy machine).
      for (const [id, reason] of [[internal.id, 'internal.test resolves to 10.1.2.3'], [local.id, 'local.test resolves to 127.0.0.1']]) {
        const logged = () => logLines(node.output()).some((l) => l.level >= 40 && JSON.stringify(l).includes(id!) && JSON.stringify(l).includes(reason!));
        await waitFor(logged, () => `no logged refusal for ${id} (${reason}):\n${node.output()}`);
      }
    } finally {
      await node.stop();
      await Promise.all([trap4.close(), trap6.close(), control.close(), redirector.close(), dns.close()]);
    }
  });
}
