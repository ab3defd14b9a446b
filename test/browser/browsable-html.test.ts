import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { RestwellServer } from '../../src/app/server.js';
import { browserSkipReason, launchBrowser, screenshot, type TestBrowser } from '../../src/test-support/browser.js';
import { GADGETS_DEMO, bearer, testServer } from '../../src/test-support/test-server.js';

const skip = browserSkipReason();


describe('the browsable HTML in Chromium', { skip }, () => {
  let server: RestwellServer;
  let browser: TestBrowser;
  let origin: string;
  let token: string;
  /** Script errors and CSP violations seen on any page: the pages must cause none. */
  const problems: string[] = [];

  const open = async (width = 1280) => {
    const page = await browser.newPage({ width });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) problems.push(`console: ${msg.text()}`);
    });
    return page;
  };
  const api = (path: string, init: RequestInit = {}) => fetch(`${origin}${path}`, init);

  before(async () => {
    server = await testServer(undefined, GADGETS_DEMO);
    origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
    token = (await bearer(server, ['gadgets:write'])).authorization.slice('Bearer '.length);
    for (const name of ['Homer', 'Marge', 'Bart', 'Lisa']) {
      await api('/characters', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
    }
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('paste a token, create with the POST form, PATCH, see a 422 at its field, a 412 conflict, then delete', async (t) => {
    const page = await open();
    await page.goto(`${origin}/gadgets`);
    await screenshot(page, 'browsable-gadgets-empty', t);

    // Without a token the write is refused, and the page says what to do.
    await page.fill('#rw-create #f-title', 'Flux capacitor');
    await page.click('#rw-create button[value=POST]');
    await page.waitForSelector('#rw-create [data-status].error');
    assert.match(await page.textContent('#rw-create [data-status]') ?? '', /401[\s\S]*token box/);

    await page.fill('#rw-token-input', `Bearer ${token}`);
    await page.press('#rw-token-input', 'Enter');
    assert.equal(await page.textContent('[data-token-state]'), 'token saved for this tab');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('restwell.token')), token, 'the key the web console reads');

    await page.fill('#rw-create #f-count', '3');
    await page.selectOption('#rw-create #f-active', 'true');
    await page.fill('#rw-create #f-releasedAt', '2024-05-01T12:30:15');
    await page.selectOption('#rw-create #f-color', 'green');
    await page.fill('#rw-create #f-maker', '2');
    await page.fill('#rw-create #f-meta', '{"tags": ["time", "travel"]}');
    await screenshot(page, 'browsable-gadgets-create-filled', t);
    await Promise.all([page.waitForURL(/\/gadgets\/\d+$/), page.click('#rw-create button[value=POST]')]);
    const url = new URL(page.url()).pathname;
    const created = await (await api(url)).json();
    assert.deepEqual(
      { title: created.title, count: created.count, active: created.active, releasedAt: created.releasedAt, color: created.color, maker: created.maker, meta: created.meta },
      { title: 'Flux capacitor', count: 3, active: true, releasedAt: '2024-05-01T12:30:15.000Z', color: 'green', maker: 2, meta: { tags: ['time', 'travel'] } },
    );
    await screenshot(page, 'browsable-gadget-record', t);

    // PATCH sends only what changed, with If-Match; the page reloads with the new version.
    await page.fill('#rw-edit #f-count', '7');
    await Promise.all([page.waitForLoadState('load'), page.waitForResponse((r) => r.request().method() === 'PATCH'), page.click('#rw-edit button[value=PATCH]')]);
    await page.waitForFunction(() => (document.querySelector('#rw-edit #f-count') as HTMLInputElement | null)?.value === '7');
    const patched = await (await api(url)).json();
    assert.equal(patched.count, 7);
    assert.equal(patched.version, created.version + 1);

    // A value the server refuses: the 422's errors[] entry is shown beside its field.
    await page.fill('#rw-edit #f-code', 'lower case');
    await page.click('#rw-edit button[value=PATCH]');
    await page.waitForSelector('#rw-edit [data-error-for=code]:not(:empty)');
    assert.match(await page.textContent('#rw-edit [data-error-for=code]') ?? '', /match/);
    assert.equal(await page.getAttribute('#rw-edit #f-code', 'aria-invalid'), 'true');
    assert.match(await page.textContent('#rw-edit [data-status]') ?? '', /Validation failed \(422\)/);
    await screenshot(page, 'browsable-gadget-422', t);

    // Someone else changes the record: the page's If-Match no longer holds, and the 412 says so.
    await api(url, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json', authorization: `Bearer ${token}` }, body: JSON.stringify({ title: 'Changed elsewhere' }) });
    await page.fill('#rw-edit #f-code', 'OK');
    await page.click('#rw-edit button[value=PATCH]');
    await page.waitForFunction(() => /412/.test(document.querySelector('#rw-edit [data-status]')?.textContent ?? ''));
    assert.match(await page.textContent('#rw-edit [data-status]') ?? '', /reload the page/);
    await screenshot(page, 'browsable-gadget-412', t);

    // DELETE asks first; dismissing keeps the record, accepting deletes it and shows the collection.
    page.once('dialog', (d) => d.dismiss());
    await page.click('.rw-delete button[value=DELETE]');
    assert.equal((await api(url)).status, 200);
    await page.reload();
    page.once('dialog', (d) => d.accept());
    await Promise.all([page.waitForURL(/\/gadgets$/), page.click('.rw-delete button[value=DELETE]')]);
    assert.equal((await api(url)).status, 404);
    await screenshot(page, 'browsable-gadgets-after-delete', t);
  });

  test('follow paging links, filter and sort with the form, open a record at 390 px, read an error page', async (t) => {
    const page = await open();
    await page.goto(`${origin}/characters?limit=1&sort=name`);
    assert.match(await page.textContent('pre') ?? '', /"Bart"/);
    await Promise.all([page.waitForURL(/cursor=/), page.click('nav.rw-pager a[rel=next] >> nth=0')]);
    assert.match(await page.textContent('pre') ?? '', /"Homer"/);
    await screenshot(page, 'browsable-characters-page-2', t);
    const second = page.url();
    await Promise.all([page.waitForURL((u) => u.href !== second), page.click('nav.rw-pager a[rel=prev] >> nth=0')]);
    assert.match(await page.textContent('pre') ?? '', /"Bart"/);
    await Promise.all([page.waitForURL(/\/characters\?limit=1&sort=name$/), page.click('nav.rw-pager a[rel=first] >> nth=0')]);
    assert.match(await page.textContent('pre') ?? '', /"Bart"/);

    // The filter form: name startsWith "M", newest name first, limit left empty (so not sent).
    await page.goto(`${origin}/characters`);
    await page.click('.rw-query summary');
    await page.selectOption('.rw-filter [data-filter-field]', 'name');
    await page.selectOption('.rw-filter [data-filter-op]', 'startsWith');
    await page.fill('.rw-filter [data-filter-value]', 'M');
    await page.selectOption('#q-sort', '-name');
    await Promise.all([page.waitForURL(/name%5BstartsWith%5D=M|name\[startsWith\]=M/), page.click('.rw-query-form button[type=submit]')]);
    assert.doesNotMatch(page.url(), /limit=/);
    const text = await page.textContent('pre') ?? '';
    assert.match(text, /"Marge"/);
    assert.doesNotMatch(text, /"Homer"/);
    await screenshot(page, 'browsable-characters-filtered', t);

    // The root's templated link is a form: fill in the problem code, go to its documentation.
    await page.goto(`${origin}/`);
    await page.fill('form.rw-template input[name=code]', 'not-found');
    await Promise.all([page.waitForURL(/\/problems\/not-found$/), page.press('form.rw-template input[name=code]', 'Enter')]);

    const narrow = await open(390);
    await narrow.goto(`${origin}/characters/1`);
    const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at 390 px (${overflow}px)`);
    await screenshot(narrow, 'browsable-character-390px', t);

    const missing = await narrow.goto(`${origin}/characters/999`);
    assert.equal(missing?.status(), 404);
    assert.equal(await narrow.textContent('.rw-problem h1'), 'Not found');
    await Promise.all([narrow.waitForURL(/\/problems\/not-found$/), narrow.click('a[rel=help]')]);
    await screenshot(narrow, 'browsable-problem-type-390px', t);
  });

  test('a 401 page of a private GET loads with the saved token', async (t) => {
    const page = await open();
    await page.goto(`${origin}/api-keys`);
    assert.equal(await page.textContent('.rw-problem .status'), '401');
    await screenshot(page, 'browsable-401', t);
    await page.fill('#rw-token-input', (await bearer(server, ['*'])).authorization.slice(7));
    await page.press('#rw-token-input', 'Enter');
    await page.click('#rw-retry');
    await page.waitForSelector('h1:text("/api-keys")');
    assert.match(await page.textContent('pre') ?? '', /"api-keys"|_embedded/);
    await screenshot(page, 'browsable-401-retried', t);
  });

  test('no page raised a script error or a Content-Security-Policy violation', () => {
    assert.deepEqual(problems, []);
  });
});
