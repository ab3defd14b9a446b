import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, screenshot, type TestBrowser } from '../../src/test-support/browser.js';
import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';
import { consoleServer, signInWithKey, watchErrors } from './console-support.js';

const skip = browserSkipReason();

describe('web console: webhook inbox, outbound deliveries and the live event log', { skip }, () => {
  let env: Awaited<ReturnType<typeof consoleServer>>;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];
  // The outbound receiver: fails until told to accept.
  let receiver: Server;
  let receiverUrl: string;
  let accept = false;
  const received: string[] = [];

  before(async () => {
    env = await consoleServer();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(body);
        res.writeHead(accept ? 204 : 500).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    browser = await launchBrowser();
    page = await browser.newPage({ width: 1280 });
    errors = watchErrors(page);
    await signInWithKey(page, env.base, env.adminKey);
  });
  after(async () => {
    await browser?.close();
    await env?.server.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('inspects a signed delivery to the demo mail source (credentials masked) and reprocesses it', async (t) => {
    // A message with the subject the delivery will bring makes its store action fail (subject is unique here).
    const sample = sampleRequest('mail', env.server.app.restwell.config.webhooks.sources.mail!, env.base, { text: 'Mmm, donuts' });
    const subject = JSON.parse(sample.body.toString()).Subject;
    const blocker = (await env.api('POST', '/messages', { subject })).json;
    const sent = await fetch(sample.url, { method: 'POST', headers: sample.headers, body: sample.body });
    assert.equal(sent.status, 200);
    const { id } = await sent.json();

    await page.getByRole('link', { name: 'Webhook inbox' }).click();
    await page.getByRole('link', { name: 'mail', exact: true }).click();
    const row = page.getByRole('row', { name: new RegExp(id) });
    await row.waitFor();
    // The first attempt runs just after the acknowledgement: wait until the list shows its failure.
    for (let i = 0; i < 50 && !/already used/.test(await row.innerText()); i++) {
      await page.waitForTimeout(100);
      await page.reload();
      await row.waitFor();
    }
    assert.match(await row.innerText(), /received\s+1/);
    await screenshot(page, 'console-inbox-list', t);
    await row.getByRole('link', { name: id }).click();
    await page.getByRole('heading', { name: `Delivery ${id}` }).waitFor();
    const main = page.locator('main');
    assert.match(await main.innerText(), /already used by \/messages\//);
    assert.match(await page.getByRole('row', { name: /^authorization/ }).innerText(), /\[redacted\]/);
    assert.doesNotMatch(await main.innerText(), /cG9zdG1hcms6/, 'the Basic credentials are not shown');
    assert.match(await main.getByLabel('Payload', { exact: true }).innerText(), /"Subject": "Mmm, donuts"/);
    await screenshot(page, 'console-inbox-delivery', t);

    // Remove the cause, then reprocess from the console.
    assert.equal((await env.api('DELETE', `/messages/${blocker.id}`)).status, 204);
    await page.getByRole('button', { name: 'Reprocess now' }).click();
    await page.locator('.badge.processed').first().waitFor();
    assert.equal((await env.api('GET', `/webhooks/mail/events/${id}`)).json.status, 'processed');
    assert.match(await page.locator('#status').innerText(), /processed/);
    assert.equal(await page.getByRole('button', { name: 'Reprocess now' }).count(), 0, 'a processed delivery offers no second run');
    await screenshot(page, 'console-inbox-reprocessed', t);
  });

  it('shows an outbound endpoint\'s failed delivery and its attempts, and redelivers it', async (t) => {
    const endpoint = (await env.api('POST', '/webhook-endpoints', { url: receiverUrl, eventTypes: ['quests.created'] })).json;
    assert.ok(endpoint.id, JSON.stringify(endpoint));
    await env.api('POST', '/quests', { title: 'Deliver me' });
    let delivery: any;
    for (let i = 0; i < 100 && !delivery?.lastStatusCode; i++) {
      await new Promise((r) => setTimeout(r, 100));
      delivery = (await env.api('GET', `/webhook-endpoints/${endpoint.id}/deliveries`)).json._embedded.deliveries[0];
    }
    assert.equal(delivery.lastStatusCode, 500);

    await page.getByRole('link', { name: 'Outbound webhooks' }).click();
    await page.getByRole('link', { name: endpoint.id }).click();
    await page.getByRole('link', { name: delivery.id }).click();
    await page.getByRole('heading', { name: `Delivery ${delivery.id}` }).waitFor();
    assert.match(await page.getByRole('table', { name: 'Attempts at this delivery' }).innerText(), /500/);
    await screenshot(page, 'console-outbound-delivery', t);
    accept = true;
    await page.getByRole('button', { name: 'Redeliver now' }).click();
    await page.getByRole('table', { name: 'Attempts at this delivery' }).getByRole('cell', { name: '204' }).waitFor();
    assert.match(await page.locator('#status').innerText(), /Redelivered/);
    assert.equal((await env.api('GET', `/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`)).json.status, 'delivered');
    assert.ok(received.length >= 2);
    await screenshot(page, 'console-outbound-redelivered', t);
  });

  it('lists the event log and shows a new event live (SSE read with fetch, the token in a header)', async (t) => {
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    assert.ok(await page.getByRole('cell', { name: 'quests.created' }).first().isVisible());
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/events/stream')) requests.push(`${r.url()} ${r.headers().authorization ? 'with' : 'without'} authorization`);
    });
    await page.getByRole('button', { name: 'Go live' }).click();
    await page.getByText('Live: connected, waiting for events').waitFor();
    assert.deepEqual(requests, [`${env.base}/events/stream with authorization`], 'no token in the URL');
    await env.api('POST', '/characters', { name: 'Live Wire' });
    const live = page.getByRole('table', { name: /^Live/ });
    await live.getByRole('cell', { name: 'characters.created' }).waitFor();
    assert.match(await live.innerText(), /Live Wire/);
    assert.match(await page.getByText(/Live: connected, 1 event received/).innerText(), /1 event/);
    await screenshot(page, 'console-events-live', t);
    await page.getByRole('button', { name: 'Stop live' }).click();
    await page.getByText('Live: off').waitFor();
    assert.deepEqual(errors, []);
  });

  it('pages the event log with Next until the end (no Next there, even on a full page), then checks for newer events', async () => {
    let total = 0;
    for (let url: string | undefined = '/events?limit=100'; url; ) {
      const body = (await env.api('GET', url)).json;
      total += body.count;
      url = body._links.next?.href;
    }
    assert.ok(total >= 2);
    const log = page.getByRole('table', { name: 'The log, oldest first' });
    // One page short of the whole log: Next leads to a last page of one event, which has no Next.
    await page.goto(`${env.base}/_/#/events?limit=${total - 1}`);
    await page.getByRole('link', { name: 'Next ›' }).click();
    await page.getByRole('link', { name: 'Check for newer ›' }).waitFor();
    assert.equal(await log.getByRole('row').count(), 2, 'a header and the one last event');
    assert.equal(await page.getByRole('link', { name: 'Next ›' }).count(), 0);
    // A page that holds exactly the whole log is the end too (its Next used to lead to an empty page, for ever).
    await page.goto(`${env.base}/_/#/events?limit=${total}`);
    await page.getByRole('link', { name: 'Check for newer ›' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Next ›' }).count(), 0);
    await env.api('POST', '/characters', { name: 'Newer Still' });
    await page.getByRole('link', { name: 'Check for newer ›' }).click();
    await log.getByRole('cell', { name: /Newer Still/ }).waitFor();
    assert.equal(await log.getByRole('row').count(), 2, 'only what was added since');
    assert.deepEqual(errors, []);
  });
});
