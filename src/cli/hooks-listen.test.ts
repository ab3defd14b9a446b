import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { WebhookSender } from '../webhooks/outbound/sender.js';
import { generateEndpointSecret } from '../webhooks/outbound/secrets.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../app/server.js';
import { resolveConfig } from '../config/load.js';
import { engines } from '../test-support/engines.js';
import { bearer, PUBLIC_DEMO, TEST_DEMO_SECRETS } from '../test-support/test-server.js';
import { allowLocalWebhooks } from './hooks-local-delivery.js';
import { listenBanner, registerEndpoint, serverUrl, startHooksListener } from './hooks-listen.js';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const settings = { connectTimeoutMs: 2000, timeoutMs: 5000, allowNetworks: ['127.0.0.1'], dnsServers: [] };

describe('restwell hooks listen', () => {
  it('prints a verified delivery and answers 204; a bad signature gets 401 and a warning', async () => {
    const secret = generateEndpointSecret();
    const out: string[] = [];
    const warnings: string[] = [];
    const listener = await startHooksListener({ port: 0, secret }, (t) => out.push(t), (t) => warnings.push(t));
    const sender = new WebhookSender({ settings });
    try {
      assert.equal(listener.generated, false);
      const body = JSON.stringify({ id: 'evt_9', type: 'characters.created', data: { name: 'Marge' } }, null, 2);
      const sent = await sender.send({ url: listener.url, headers: {}, secrets: [secret], id: 'evt_9', body });
      assert.equal(sent.ok, true);
      assert.equal(sent.statusCode, 204);
      assert.equal(out.length, 1);
      assert.match(out[0]!, /^\d\d:\d\d:\d\d {2}evt_9 {2}characters\.created {2}\{"id":"evt_9","type":"characters\.created","data":\{"name":"Marge"\}\}\n$/);

      const forged = await sender.send({ url: listener.url, headers: {}, secrets: [generateEndpointSecret()], id: 'evt_10', body });
      assert.equal(forged.statusCode, 401);
      const unsigned = await request(listener.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      assert.equal(unsigned.statusCode, 401);
      await unsigned.body.dump();
      assert.equal(out.length, 1);
      assert.equal(warnings.length, 2);
      assert.match(warnings[0]!, /rejected evt_10: no webhook-signature matches/);
      assert.match(warnings[1]!, /rejected no webhook-id: missing webhook-id/);
    } finally {
      await sender.close();
      await listener.close();
    }
  });

  it('refuses a --secret that is not a whsec_ secret', async () => {
    await assert.rejects(startHooksListener({ port: 0, secret: 'hunter2' }, () => undefined, () => undefined), /--secret must start with whsec_/);
  });

  it('makes a secret when none is given and prints how to create an endpoint with it', async () => {
    const listener = await startHooksListener({ port: 0 }, () => undefined, () => undefined);
    try {
      assert.equal(listener.generated, true);
      const banner = listenBanner(listener);
      assert.ok(banner.includes(listener.secret));
      assert.ok(banner.includes(`curl -X POST http://localhost:8080/webhook-endpoints`));
      assert.ok(banner.includes('-H "Authorization: Bearer $TOKEN"'), 'the curl runs as printed after the README tour exports TOKEN');
      assert.match(banner, /--allow-local-webhooks/);
      const elsewhere = listenBanner(listener, 'http://127.0.0.1:9100');
      assert.ok(elsewhere.includes('curl -X POST http://127.0.0.1:9100/webhook-endpoints'), 'the curl names the server it was pointed at');
      assert.ok(!elsewhere.includes('8080'));
      assert.ok(banner.includes(`-d '${JSON.stringify({ url: listener.url, secret: listener.secret })}'`));
      assert.match(banner, /Authorization: Bearer/);
    } finally {
      await listener.close();
    }
  });

  it('runs as a command and stops cleanly on SIGINT', async () => {
    const secret = generateEndpointSecret();
    const child = spawn(process.execPath, ['--import', 'tsx', main, 'hooks', 'listen', '--port', '0', '--secret', secret], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const exited = once(child, 'exit');
    // Waits for more output, failing (not hanging) when the command ends first.
    const more = () => Promise.race([once(child.stdout, 'data'), exited.then(() => Promise.reject(new Error(`hooks listen exited: ${stderr}`)))]);
    while (!/Listening for webhooks on (\S+)/.test(stdout)) await more();
    const url = /Listening for webhooks on (\S+)/.exec(stdout)![1]!;
    const sender = new WebhookSender({ settings });
    try {
      const sent = await sender.send({ url, headers: {}, secrets: [secret], id: 'evt_cli', body: '{"type":"ping"}' });
      assert.equal(sent.statusCode, 204);
      while (!stdout.includes('evt_cli')) await more();
      assert.match(stdout, /evt_cli {2}ping {2}\{"type":"ping"\}/);
    } finally {
      await sender.close();
    }
    child.kill('SIGINT');
    const [code] = await exited;
    assert.equal(code, 0);
    assert.match(stdout, /Stopped\.\n$/);
  });

  it('names the server it is pointed at: --url, else PORT and the config\'s port and host (as serve reads them), else localhost:8080', () => {
    assert.equal(serverUrl({ url: 'http://api.test:9000/' }, {}), 'http://api.test:9000');
    assert.equal(serverUrl({}, {}), 'http://localhost:8080');
    assert.equal(serverUrl({}, { PORT: '9100' }), 'http://localhost:9100');
    const dir = mkdtempSync(join(tmpdir(), 'restwell-listen-'));
    const config = join(dir, 'restwell.json');
    writeFileSync(config, JSON.stringify({ server: { port: 7000, host: '127.0.0.2' }, resources: { notes: { fields: { text: { type: 'string' } } } } }));
    assert.equal(serverUrl({ config }, {}), 'http://127.0.0.2:7000');
    assert.equal(serverUrl({ config }, { PORT: '9100' }), 'http://127.0.0.2:9100', 'PORT overrides the config, as it does for serve');
    assert.equal(serverUrl({}, { RESTWELL_CONFIG: config }), 'http://127.0.0.2:7000');
    assert.equal(serverUrl({ url: 'http://localhost:1234', config }, {}), 'http://localhost:1234');
  });

  for (const engine of engines) {
    it(`--register: a server that keeps loopback out refuses, naming --allow-local-webhooks; with it, the endpoint delivers here (${engine.name})`, async () => {
      const resolved = resolveConfig(PUBLIC_DEMO, { env: TEST_DEMO_SECRETS, overrides: { database: engine.freshUrl() } });
      // Quick retries: on a loaded machine a first attempt may fail, and the default second wait is minutes.
      const outbound = { ...resolved.webhooks.outbound, pollIntervalMs: 50, retryScheduleMs: Array(20).fill(100) };
      const fast = { ...resolved, webhooks: { ...resolved.webhooks, outbound } };
      const lines: string[] = [];
      let heard = () => {};
      const listener = await startHooksListener({ port: 0 }, (t) => (lines.push(t), heard()), () => undefined);
      const strict = await createServer(fast);
      const local = allowLocalWebhooks(fast);
      const open = await createServer(local.config);
      try {
        assert.deepEqual(local.config.webhooks.outbound.allowNetworks, ['127.0.0.1', '::1']);
        assert.deepEqual(fast.webhooks.outbound.allowNetworks, [], 'the config it was given is left as it was');
        assert.match(local.warning, /^WARNING: --allow-local-webhooks/);
        await strict.app.listen({ port: 0, host: '127.0.0.1' });
        const strictUrl = `http://127.0.0.1:${(strict.app.server.address() as { port: number }).port}`;
        const strictToken = (await bearer(strict, ['webhooks:write'])).authorization.slice('Bearer '.length);
        await assert.rejects(registerEndpoint(strictUrl, strictToken, listener), /refused the endpoint: 422 .*loopback.*start the server with --allow-local-webhooks/);
        await assert.rejects(registerEndpoint(strictUrl, 'not-a-key', listener), /refused the endpoint: 401 .*webhooks:write/);

        await open.app.listen({ port: 0, host: '127.0.0.1' });
        const openUrl = `http://127.0.0.1:${(open.app.server.address() as { port: number }).port}`;
        const token = (await bearer(open, ['webhooks:write'])).authorization.slice('Bearer '.length);
        const id = await registerEndpoint(openUrl, token, listener);
        assert.match(id, /^ep_/);
        const delivered = new Promise<void>((resolve) => (heard = () => lines.some((l) => l.includes('"name":"Ned"')) && resolve()));
        const created = await request(`${openUrl}/characters`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ned"}' });
        assert.equal(created.statusCode, 201);
        await created.body.dump();
        await delivered;
        assert.match(lines.find((l) => l.includes('Ned'))!, /characters\.created {2}\{/);
      } finally {
        await listener.close();
        await strict.close();
        await open.close();
      }
    });
  }
});
