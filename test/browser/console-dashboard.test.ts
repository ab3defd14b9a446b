import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { opsState } from '../../src/app/ops/ops-state.js';
import { storageMeasures } from '../../src/app/ops/storage-metrics.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { browserSkipReason, checkScreen, launchBrowser, type TestBrowser } from '../../src/test-support/browser.js';
import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';
import { assertNoHorizontalOverflow, consoleServer, signInWithKey, watchErrors } from './console-support.js';

const skip = browserSkipReason();

describe('web console: the dashboard and the webhook sparklines', { skip }, () => {
  let env: Awaited<ReturnType<typeof consoleServer>>;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];
  let receiver: Server;
  let endpointId: string;
  const history = () => opsState(env.server.context).history!;

  /** The peak a chart's summary table shows for one of its lines (what the chart was given). */
  const peak = async (chart: string, series: string) => Number(await page.locator(`[data-chart="${chart}"] tr[data-series="${series}"]`).getAttribute('data-peak'));

  before(async () => {
    env = await consoleServer();
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    browser = await launchBrowser();
    page = await browser.newPage({ width: 1280 });
    errors = watchErrors(page);

    // Traffic of every kind the dashboard draws: writes, reads, a 404, an inbound and an outbound delivery.
    endpointId = (await env.api('POST', '/webhook-endpoints', { url: receiverUrl, eventTypes: ['characters.created'] })).json.id;
    for (const name of ['Homer', 'Marge', 'Bart']) assert.equal((await env.api('POST', '/characters', { name })).status, 201);
    assert.equal((await env.api('GET', '/characters')).status, 200);
    assert.equal((await env.api('GET', '/no-such-collection')).status, 404);
    const sample = sampleRequest('mail', env.server.app.restwell.config.webhooks.sources.mail!, env.base, { text: 'Dashboard' });
    assert.equal((await fetch(sample.url, { method: 'POST', headers: sample.headers, body: sample.body })).status, 200);
    for (let delivered = 0; delivered < 3; ) {
      const page = (await env.api('GET', `/webhook-endpoints/${endpointId}/deliveries`)).json;
      delivered = page._embedded.deliveries.filter((d: { status: string }) => d.status === 'delivered').length;
      if (delivered < 3) await new Promise((r) => setTimeout(r, 50));
    }
    // The store's size measured after the writes (a scrape waits only so long for it), then a sample now rather than at the next tick.
    const size = storageMeasures(env.server.context)!.size!;
    size.invalidate();
    await waitFor(async () => ((await size.get())?.eventRows ?? 0) >= 3, 'the event log\'s size, measured after the writes');
    assert.ok(await history().sample());
  });
  after(async () => {
    await browser?.close();
    await env?.server.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('an anonymous tab\'s home is the collections; a signed-in one gets the dashboard, first in the menu', async () => {
    await page.goto(`${env.base}/_/#/`);
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Dashboard' }).count(), 0);
    await signInWithKey(page, env.base, env.adminKey);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    assert.equal(await page.locator('nav li').first().innerText(), 'Dashboard');
    assert.equal(await page.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current'), 'page');
    await page.getByRole('link', { name: 'Collections' }).click();
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    assert.match(page.url(), /#\/c$/);
  });

  it('draws non-zero series from this node\'s history, names the node, and passes axe in light and dark at 1280 px', async (t) => {
    await page.goto(`${env.base}/_/#/`);
    await page.locator('[data-chart="requests"] tr[data-series="records"]').waitFor();
    assert.equal(await page.locator('main > .view').getAttribute('data-node'), env.server.context.outbound.attempts.node);
    assert.match(await page.locator('#dashboard-node').innerText(), new RegExp(`Node ${env.server.context.outbound.attempts.node}`));
    assert.ok((await peak('requests', 'records')) > 0, 'records requests per second');
    assert.ok((await peak('latency-p50', 'records')) > 0, 'records latency');
    assert.ok((await peak('errors', '4xx')) > 0, 'the 404');
    assert.ok((await peak('writes', 'characters')) > 0, 'writes to characters');
    assert.ok((await peak('inbound', 'accepted')) > 0, 'the inbound delivery');
    assert.ok((await peak('outbound', 'delivered')) > 0, 'the outbound deliveries');
    assert.ok((await peak('outbound-latency', 'p50')) > 0, 'outbound latency');
    assert.ok((await peak('database', 'database')) > 0, 'the database size');
    assert.ok((await peak('event-log', 'events')) >= 3, 'the event log holds the three creations');
    // What the page drew is what the server's history holds.
    const doc = (await env.api('GET', '/metrics/history')).json;
    assert.equal(await peak('writes', 'characters'), Math.max(...doc.writes.characters));
    assert.equal(await page.locator('[data-chart] canvas').count(), 12);
    await assertNoHorizontalOverflow(page, 'the dashboard at 1280 px');
    assert.deepEqual(errors, []);
    await checkScreen(page, 'console-dashboard', t);
  });

  it('updates live when the node takes a new sample, and follows the theme toggle', async (t) => {
    await page.goto(`${env.base}/_/#/`);
    await page.locator('[data-chart="requests"] tr[data-series="records"]').waitFor();
    const samples = Number(await page.locator('main > .view').getAttribute('data-samples'));
    for (const name of ['Lisa', 'Maggie']) await env.api('POST', '/characters', { name });
    await history().sample();
    // The page's next poll (every 5 s) finds the new sample.
    await page.waitForFunction((n) => Number(document.querySelector('main > .view')?.dataset.samples) > n, samples);

    const colors = () => page.locator('[data-chart="requests"]').getAttribute('data-colors');
    await page.emulateMedia({ colorScheme: 'light' });
    const toggle = page.locator('#theme-toggle');
    // system → light → dark
    await toggle.click();
    await page.locator('html[data-theme="light"]').waitFor({ state: 'attached' });
    const light = await colors();
    await toggle.click();
    await page.locator('html[data-theme="dark"]').waitFor({ state: 'attached' });
    await page.waitForFunction((before) => document.querySelector('[data-chart="requests"]')?.getAttribute('data-colors') !== before, light);
    assert.notEqual(await colors(), light, 'the lines are drawn again in the dark palette');
    await toggle.click();
    await page.locator('html:not([data-theme])').waitFor({ state: 'attached' });
    assert.deepEqual(errors, []);
  });

  it('fits a 390 px phone: no sideways scrolling, axe clean in both schemes', async (t) => {
    const phone = await browser.newPage({ width: 390, height: 844 });
    const phoneErrors = watchErrors(phone);
    await signInWithKey(phone, env.base, env.adminKey);
    await phone.locator('[data-chart="writes"] tr[data-series="characters"]').waitFor();
    await assertNoHorizontalOverflow(phone, 'the dashboard at 390 px');
    const widths = await phone.locator('[data-chart] canvas').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().right));
    assert.ok(widths.every((right) => right <= 390), `every chart fits: ${widths}`);
    assert.deepEqual(phoneErrors, []);
    await checkScreen(phone, 'console-dashboard-390', t);
    await phone.goto(`${env.base}/_/#/outbound/${endpointId}`);
    await phone.locator('.webhook-health [data-chart="success-rate"]').waitFor();
    await assertNoHorizontalOverflow(phone, 'an endpoint with sparklines at 390 px');
    assert.deepEqual(phoneErrors, []);
    await checkScreen(phone, 'console-outbound-health-390', t);
  });

  it('shows an outbound endpoint\'s and an inbound source\'s success rate and latency over the last hour', async (t) => {
    await page.goto(`${env.base}/_/#/outbound/${endpointId}`);
    const health = page.getByRole('region', { name: 'Last hour on this node' });
    await health.waitFor();
    assert.match(await health.locator('[data-chart="success-rate"] .spark-summary').innerText(), /Success rate: 100% in the latest sample/);
    assert.ok(Number(await health.locator('[data-chart="latency"] .spark-summary').getAttribute('data-peak')) > 0);
    assert.match(await health.innerText(), new RegExp(`\\d+ attempts to endpoint ${endpointId} in the last 60 minutes on node`));
    assert.ok(Number(await health.getAttribute('data-count')) >= 3, 'the three deliveries at least');
    assert.deepEqual(errors, []);
    await checkScreen(page, 'console-outbound-health', t);

    await page.goto(`${env.base}/_/#/inbox/mail`);
    await health.waitFor();
    assert.match(await health.locator('[data-chart="success-rate"] .spark-summary').innerText(), /Success rate: 100%/);
    assert.match(await health.innerText(), /1 delivery to source mail/);
    assert.deepEqual(errors, []);
    await checkScreen(page, 'console-inbox-health', t);
  });

  it('a token that may not read the metrics gets the collections at #/, no Dashboard link and no sparklines', async () => {
    const key = (await env.server.context.auth.apiKeys.create({ name: 'writer', scopes: ['characters:write', 'webhooks:read', 'webhooks:write'] })).key;
    const other = await browser.newPage({ width: 1280 });
    const otherErrors = watchErrors(other);
    await signInWithKey(other, env.base, key);
    await other.getByRole('heading', { name: 'Collections' }).waitFor();
    assert.equal(await other.locator('[data-chart]').count(), 0);
    await other.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Dashboard' }).waitFor({ state: 'detached' });
    assert.deepEqual(otherErrors, []);
  });

  it('a view still loading when the reader moves on never overwrites the next one', async () => {
    const other = await browser.newPage({ width: 1280 });
    const otherErrors = watchErrors(other);
    await signInWithKey(other, env.base, env.adminKey);
    await other.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // Hold the dashboard's data back, open it, and leave for another page before it arrives.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const requested = new Promise<void>((resolve) => (asked = resolve));
    await other.route('**/metrics/history', async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await other.goto(`${env.base}/_/#/c`);
    await other.getByRole('heading', { name: 'Collections' }).waitFor();
    await other.goto(`${env.base}/_/#/`);
    await requested;
    await other.goto(`${env.base}/_/#/credentials`);
    await other.getByRole('heading', { name: 'OAuth clients', exact: true }).waitFor();
    release();
    await other.waitForResponse('**/metrics/history');
    assert.equal(await other.getByRole('heading', { name: 'Dashboard' }).count(), 0);
    assert.equal(await other.getByRole('heading', { name: 'OAuth clients', exact: true }).count(), 1);
    assert.deepEqual(otherErrors, []);
  });
});
