import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, checkScreen, launchBrowser, type TestBrowser } from '../../src/test-support/browser.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { sampleRequest } from '../../src/webhooks/inbound/sample-request.js';
import { assertNoHorizontalOverflow, consoleServer, signInWithKey, watchErrors } from './console-support.js';

const skip = browserSkipReason();

/** The DiagnosticContext checkScreen reports through. */
type T = { diagnostic(message: string): void };

/** checkScreen (axe-core, light and dark) on the desktop and at 390 px, where nothing may scroll sideways. */
async function screens(page: Page, name: string, t: T): Promise<void> {
  await checkScreen(page, name, t);
  await page.setViewportSize({ width: 390, height: 800 });
  try {
    await assertNoHorizontalOverflow(page, `${name} at 390 px`);
    await checkScreen(page, `${name}-390px`, t);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

describe('web console: webhook inbox, outbound endpoints managed, and the live event log', { skip }, () => {
  let env: Awaited<ReturnType<typeof consoleServer>>;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];
  // The outbound receiver: answers 500 until told to accept.
  let receiver: Server;
  let receiverUrl: string;
  let accept = false;
  const received: Array<{ type: string; signature: string }> = [];

  before(async () => {
    env = await consoleServer();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ type: JSON.parse(body).type, signature: String(req.headers['webhook-signature']) });
        res.writeHead(accept ? 200 : 500, { 'content-type': 'text/plain' }).end(accept ? 'thanks' : 'receiver down');
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
    // The first attempt runs just after the acknowledgement: wait for its failure, then look.
    await waitFor(async () => (await env.api('GET', `/webhooks/mail/events/${id}`)).json.lastError, 'the first attempt at the mail delivery');

    await page.getByRole('link', { name: 'Webhook inbox' }).click();
    await page.getByRole('link', { name: 'mail', exact: true }).click();
    const row = page.getByRole('row', { name: new RegExp(id) });
    await row.waitFor();
    assert.match(await row.innerText(), /received\s+1/);
    await screens(page, 'console-inbox-list', t);
    await row.getByRole('link', { name: id }).click();
    await page.getByRole('heading', { name: `Delivery ${id}` }).waitFor();
    const main = page.locator('main');
    // The heading comes first ("Loading…" below it); the delivery's details follow.
    await main.getByText(/already used by \/messages\//).first().waitFor();
    assert.match(await page.getByRole('row', { name: /^authorization/ }).innerText(), /\[redacted\]/);
    assert.doesNotMatch(await main.innerText(), /cG9zdG1hcms6/, 'the Basic credentials are not shown');
    assert.match(await main.getByLabel('Payload', { exact: true }).innerText(), /"Subject": "Mmm, donuts"/);
    await screens(page, 'console-inbox-delivery', t);

    // Remove the cause, then reprocess from the console.
    assert.equal((await env.api('DELETE', `/messages/${blocker.id}`)).status, 204);
    await page.getByRole('button', { name: 'Reprocess now' }).click();
    await page.locator('.badge.processed').first().waitFor();
    assert.equal((await env.api('GET', `/webhooks/mail/events/${id}`)).json.status, 'processed');
    assert.match(await page.locator('#status').innerText(), /processed/);
    assert.equal(await page.getByRole('button', { name: 'Reprocess now' }).count(), 0, 'a processed delivery offers no second run');
  });

  let endpointId: string;
  let firstSecret: string;

  it('creates an endpoint with event types picked from the API\'s list; a bad URL is shown at its field; the secret is shown once', async (t) => {
    await page.getByRole('link', { name: 'Outbound webhooks' }).click();
    await page.getByRole('heading', { name: 'Outbound webhooks' }).waitFor();
    await screens(page, 'console-outbound-list-empty', t);
    await page.getByRole('link', { name: 'New endpoint' }).click();
    const form = page.getByRole('form', { name: 'Create an endpoint' });
    await form.waitFor();
    // The checkboxes are the server's list: every collection's types and prefixes, and the webhook sources'.
    const types = (await env.api('GET', '/webhook-endpoints/event-types')).json;
    assert.equal(await form.getByRole('checkbox').count(), types.patterns.length, 'All events, then every pattern but *');
    assert.ok(await form.getByRole('checkbox', { name: 'All events, including types added later' }).isChecked());
    assert.ok(await form.getByRole('checkbox', { name: 'quests.created' }).isDisabled(), 'all events: nothing to pick');
    await screens(page, 'console-outbound-new', t);

    await form.getByLabel('URL').fill('ftp://example.com/hooks');
    await form.getByRole('checkbox', { name: 'All events, including types added later' }).uncheck();
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    await form.getByText('Pick at least one event type, or All events.').waitFor();
    await form.getByRole('checkbox', { name: 'quests.created' }).check();
    await form.getByRole('checkbox', { name: 'characters.*' }).check();
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const urlError = form.locator('[data-field] .field-error').first();
    await urlError.waitFor();
    assert.match(await urlError.innerText(), /http/);
    assert.equal(await form.getByLabel('URL').getAttribute('aria-invalid'), 'true');
    await screens(page, 'console-outbound-new-invalid', t);

    await form.getByLabel('URL').fill(receiverUrl);
    await form.getByLabel('Description').fill('Quest board');
    await form.getByLabel('Rate limit: deliveries').fill('5');
    await form.getByLabel('Rate limit: per').fill('1s');
    await form.getByRole('button', { name: 'Create endpoint' }).click();
    const created = page.getByRole('heading', { name: /^Endpoint ep_\w+ created$/ });
    await created.waitFor();
    endpointId = /ep_\w+/.exec(await created.innerText())![0];
    firstSecret = await page.locator('output.secret').innerText();
    assert.match(firstSecret, /^whsec_/);
    const stored = (await env.api('GET', `/webhook-endpoints/${endpointId}`)).json;
    assert.deepEqual(stored.eventTypes.sort(), ['characters.*', 'quests.created']);
    assert.deepEqual(stored.rateLimit, { limit: 5, window: '1s' });
    assert.equal(stored.description, 'Quest board');
    assert.ok(stored.secrets[0].hint.startsWith(firstSecret.slice(0, 8)));
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: /^(Copied|Selected: press Ctrl\+C)$/ }).waitFor();
    await screens(page, 'console-outbound-created', t);
    await page.getByRole('link', { name: 'Open the endpoint' }).click();
    await page.getByRole('heading', { name: `Endpoint ${endpointId}` }).waitFor();
    assert.equal(await page.locator('output.secret').count(), 0, 'the secret is not shown again');
    assert.deepEqual(errors, []);
  });

  it('sends a test event (failure, then success), disables and enables, edits, and rotates the secret (shown once)', async (t) => {
    const out = page.locator('.endpoint-out');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await out.getByText('Test event failed: HTTP 500').waitFor();
    assert.match(await out.innerText(), /receiver down/);
    await screens(page, 'console-outbound-test-failed', t);
    accept = true;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await out.getByText(/^Test event delivered: HTTP 200 in \d+ ms$/).waitFor();
    assert.deepEqual(received.map((r) => r.type), ['webhook.test', 'webhook.test']);
    await screens(page, 'console-outbound-test-delivered', t);

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.locator('.toolbar .badge', { hasText: 'disabled' }).waitFor();
    assert.equal((await env.api('GET', `/webhook-endpoints/${endpointId}`)).json.enabled, false);
    assert.match(await page.locator('#status').innerText(), /Disabled/);
    await screens(page, 'console-outbound-disabled', t);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.locator('.toolbar .badge', { hasText: 'enabled' }).waitFor();
    assert.equal((await env.api('GET', `/webhook-endpoints/${endpointId}`)).json.enabled, true);

    await page.getByRole('link', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit the endpoint' });
    await form.waitFor();
    assert.equal(await form.getByLabel('URL').inputValue(), receiverUrl);
    assert.ok(await form.getByRole('checkbox', { name: 'quests.created' }).isChecked());
    assert.ok(await form.getByRole('checkbox', { name: 'characters.*' }).isChecked());
    await screens(page, 'console-outbound-edit', t);
    await form.getByLabel('Description').fill('Quest board (edited)');
    await form.getByRole('checkbox', { name: 'characters.*' }).uncheck();
    await form.getByLabel('Rate limit: deliveries').fill('');
    await form.getByLabel('Rate limit: per').fill('');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: `Endpoint ${endpointId}` }).waitFor();
    await page.getByText('Quest board (edited)').waitFor();
    const edited = (await env.api('GET', `/webhook-endpoints/${endpointId}`)).json;
    assert.deepEqual(edited.eventTypes, ['quests.created']);
    assert.equal(edited.rateLimit, null);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.waitFor();
    await screens(page, 'console-outbound-rotate-confirm', t);
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await page.locator('.endpoint-out output.secret').waitFor();
    const newSecret = await page.locator('.endpoint-out output.secret').innerText();
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, firstSecret);
    // During the overlap both secrets sign; the table shows both hints.
    assert.equal(await page.getByRole('table', { name: 'Signing secrets (newest first)' }).getByRole('row').count(), 3);
    await screens(page, 'console-outbound-rotated', t);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText(/^Test event delivered/).waitFor();
    assert.equal(received.at(-1)!.signature.split(' ').length, 2, 'signed with both secrets');
    assert.equal(await page.locator('output.secret').count(), 0, 'the new secret is gone once the page changes');
    assert.deepEqual(errors, []);
  });

  it('filters deliveries by status and event type, replays since a time (only failed), and redelivers one', async (t) => {
    accept = false;
    const failing = (await env.api('POST', '/quests', { title: 'Doomed quest' })).json;
    const failed = await waitFor(async () => (await env.api('GET', `/webhook-endpoints/${endpointId}/deliveries`)).json._embedded.deliveries.find((d: any) => d.lastStatusCode === 500), 'the failed attempt');
    accept = true;
    await env.api('POST', '/quests', { title: 'Happy quest' });
    await waitFor(async () => (await env.api('GET', `/webhook-endpoints/${endpointId}/deliveries?status=delivered`)).json.count === 1, 'the delivered one');
    assert.ok(failing.id);

    // The page shows the endpoint already: through the list, so it is read again.
    await page.getByRole('link', { name: 'Outbound webhooks' }).click();
    await page.getByRole('link', { name: endpointId }).click();
    const deliveries = page.getByRole('table', { name: /^Deliveries to/ });
    await deliveries.getByRole('row').nth(2).waitFor();
    assert.equal(await deliveries.getByRole('row').count(), 3);
    const filters = page.getByRole('form', { name: 'Filter the deliveries' });
    await filters.getByLabel('Status').selectOption('delivered');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('table', { name: /\(filtered\)$/ }).waitFor();
    assert.equal(await page.getByRole('table', { name: /^Deliveries to/ }).getByRole('row').count(), 2);
    assert.match(page.url(), /status=delivered/);
    await screens(page, 'console-outbound-deliveries-filtered', t);
    await filters.getByLabel('Status').selectOption('');
    await filters.getByLabel('Event type').selectOption('characters.created');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/eventType=characters.created/);
    await page.getByRole('table', { name: /\(filtered\)$/ }).getByText('Nothing here yet.').waitFor();

    // Replay: only what failed, since an hour ago; the pending (failing) one is not failed yet, so none is queued.
    await page.goto(`${env.base}/_/#/outbound/${endpointId}`);
    const replay = page.getByRole('form', { name: 'Replay deliveries' });
    await replay.waitFor();
    await replay.getByLabel('Only deliveries that failed').check();
    await replay.getByRole('button', { name: 'Replay' }).click();
    const answer = replay.locator('[role=status], .problem');
    await answer.waitFor();
    assert.equal(await answer.innerText(), 'Replay accepted: 0 existing deliveries queued again (failed only).');
    await screens(page, 'console-outbound-replayed', t);
    // A time in the future is refused at the field.
    await replay.getByLabel('Since (your local time)').fill('2999-01-01T00:00:00');
    await replay.getByRole('button', { name: 'Replay' }).click();
    await replay.locator('.field-error', { hasText: 'is in the future; nothing was committed after it yet' }).waitFor();

    await page.getByRole('link', { name: failed.id }).click();
    await page.getByRole('heading', { name: `Delivery ${failed.id}` }).waitFor();
    assert.match(await page.getByRole('table', { name: 'Attempts at this delivery' }).innerText(), /500/);
    await screens(page, 'console-outbound-delivery', t);
    await page.getByRole('button', { name: 'Redeliver now' }).click();
    await page.getByRole('table', { name: 'Attempts at this delivery' }).getByRole('cell', { name: '200' }).waitFor();
    assert.match(await page.locator('#status').innerText(), /Redelivered/);
    assert.equal((await env.api('GET', `/webhook-endpoints/${endpointId}/deliveries/${failed.id}`)).json.status, 'delivered');
    await screens(page, 'console-outbound-redelivered', t);
    assert.deepEqual(errors, []);
  });

  it('lists endpoints and deletes one after confirming', async (t) => {
    await page.getByRole('link', { name: 'Outbound webhooks' }).click();
    const row = page.getByRole('row', { name: new RegExp(endpointId) });
    await row.waitFor();
    assert.match(await row.innerText(), /Quest board \(edited\)[\s\S]*quests\.created[\s\S]*enabled/);
    await screens(page, 'console-outbound-list', t);
    await row.getByRole('link', { name: endpointId }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete the endpoint ${endpointId}?` });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Outbound webhooks' }).waitFor();
    await page.getByText('Nothing here yet.').waitFor();
    assert.equal((await env.api('GET', `/webhook-endpoints/${endpointId}`)).status, 404);
    assert.deepEqual(errors, []);
  });

  it('shows the event log newest first, filters it by type and resource, and puts live events on top (SSE read with fetch, the token in a header)', async (t) => {
    await env.api('POST', '/characters', { name: 'Oldest Hero' });
    await env.api('POST', '/quests', { title: 'Newest quest' });
    await page.getByRole('link', { name: 'Events' }).click();
    const log = page.getByRole('table', { name: /^The log, newest first/ });
    await log.waitFor();
    assert.match(await log.getByRole('row').nth(1).innerText(), /quests\.created[\s\S]*Newest quest/, 'the newest event first');
    await screens(page, 'console-events', t);

    const filters = page.getByRole('form', { name: 'Filter the events' });
    await filters.getByLabel('Resource').selectOption('characters');
    await filters.getByRole('button', { name: 'Filter' }).click();
    const filtered = page.getByRole('table', { name: 'The log, newest first (filtered)' });
    await filtered.waitFor();
    for (const text of await filtered.locator('tbody tr td:nth-child(1)').allInnerTexts()) assert.match(text, /^characters\./);
    await filters.getByLabel('Type').selectOption('characters.created');
    await filters.getByLabel('Resource').selectOption('');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/type=characters.created$/);
    await screens(page, 'console-events-filtered', t);

    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/events/stream')) requests.push(`${r.url()} ${r.headers().authorization ? 'with' : 'without'} authorization`);
    });
    await page.getByRole('button', { name: 'Go live' }).click();
    await page.getByText('Live: connected, waiting for events').waitFor();
    assert.deepEqual(requests, [`${env.base}/events/stream?type=characters.created with authorization`], 'no token in the URL; the type filter goes to the server');
    await env.api('POST', '/quests', { title: 'Not a character' });
    await env.api('POST', '/characters', { name: 'Live Wire' });
    await filtered.locator('tbody tr.fresh').waitFor();
    assert.match(await filtered.getByRole('row').nth(1).innerText(), /characters\.created[\s\S]*Live Wire/, 'the live event on top');
    assert.doesNotMatch(await filtered.innerText(), /Not a character/);
    await page.getByText('Live: connected, 1 new event at the top').waitFor();
    await screens(page, 'console-events-live', t);
    await page.getByRole('button', { name: 'Stop live' }).click();
    await page.getByText('Live: off').waitFor();
    assert.deepEqual(errors, []);
  });

  it('pages the newest-first log back to its oldest event, then returns to the newest', async () => {
    let total = 0;
    for (let url: string | undefined = '/events?limit=100'; url; ) {
      const body = (await env.api('GET', url)).json;
      total += body.count;
      url = body._links.next?.href;
    }
    assert.ok(total >= 2);
    const log = page.getByRole('table', { name: /^The log, newest first/ });
    // One page short of the whole log: Next leads to a last page of one event (the oldest), which has no Next.
    await page.goto(`${env.base}/_/#/events?limit=${total - 1}`);
    await log.waitFor();
    await page.getByRole('link', { name: 'Next ›' }).click();
    await page.getByText('Go back to the first page to follow events live.').waitFor();
    assert.equal(await log.getByRole('row').count(), 2, 'a header and the one oldest event');
    const oldest = (await env.api('GET', '/events?limit=1')).json._embedded.events[0];
    assert.match(await log.innerText(), new RegExp(oldest.id));
    assert.equal(await page.getByRole('link', { name: 'Next ›' }).count(), 0);
    await page.getByRole('link', { name: '« First' }).click();
    await page.getByRole('button', { name: 'Go live' }).waitFor();
    assert.equal(await log.getByRole('row').count(), total);
    assert.deepEqual(errors, []);
  });
});
