import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, screenshot, type TestBrowser } from '../../src/test-support/browser.js';
import { assertNoHorizontalOverflow, consoleServer, signInWithKey, watchErrors } from './console-support.js';

const skip = browserSkipReason();

describe('web console: collections and records', { skip }, () => {
  let env: Awaited<ReturnType<typeof consoleServer>>;
  let browser: TestBrowser;
  let page: Page;
  let errors: string[];

  before(async () => {
    env = await consoleServer();
    for (let i = 1; i <= 12; i++) await env.api('POST', '/characters', { name: `Hero ${String(i).padStart(2, '0')}`, number: `555-01${String(i).padStart(2, '0')}` });
    browser = await launchBrowser();
    page = await browser.newPage({ width: 1280 });
    errors = watchErrors(page);
  });
  after(async () => {
    await browser?.close();
    await env?.server.close();
  });

  it('browses public collections anonymously, from the links of the API root', async (t) => {
    await page.goto(`${env.base}/_/`);
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    assert.ok(await page.getByText('Anonymous').isVisible());
    for (const name of ['characters', 'messages', 'quests']) assert.ok(await page.getByRole('link', { name, exact: true }).isVisible(), name);
    await screenshot(page, 'console-home-anonymous', t);
    await page.getByRole('link', { name: 'characters', exact: true }).click();
    await page.locator('table tbody tr').first().waitFor();
    assert.equal(await page.locator('table tbody tr').count(), 12);
    await screenshot(page, 'console-list-anonymous', t);
  });

  it('signs in with a pasted API key, kept in sessionStorage (no cookie)', async (t) => {
    await signInWithKey(page, env.base, env.adminKey);
    assert.match(await page.locator('#session').innerText(), /Signed in \(API key\)/);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('restwell.token')), env.adminKey);
    assert.deepEqual(await page.context().cookies(), []);
    await screenshot(page, 'console-signed-in', t);
  });

  it('pages through a collection with the server\'s next/prev links, sorts by a column and filters', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters?limit=5`);
    const names = () => page.locator('table tbody tr td:nth-child(2)').allInnerTexts();
    await page.locator('table tbody tr').first().waitFor();
    assert.deepEqual(await names(), ['Hero 01', 'Hero 02', 'Hero 03', 'Hero 04', 'Hero 05']);
    await page.getByRole('link', { name: 'Next ›' }).click();
    await page.getByRole('cell', { name: 'Hero 06' }).waitFor();
    assert.deepEqual(await names(), ['Hero 06', 'Hero 07', 'Hero 08', 'Hero 09', 'Hero 10']);
    await screenshot(page, 'console-list-page-2', t);
    await page.getByRole('link', { name: '‹ Previous' }).click();
    await page.getByRole('cell', { name: 'Hero 01' }).waitFor();

    // Sort: a click on a header sorts ascending, a second click descending.
    await page.getByRole('link', { name: /^name, sort ascending/ }).click();
    await page.waitForFunction(() => location.hash.includes('sort=name'));
    await page.getByRole('link', { name: /^name, sort descending/ }).click();
    await page.getByRole('cell', { name: 'Hero 12' }).waitFor();
    assert.deepEqual(await names(), ['Hero 12', 'Hero 11', 'Hero 10', 'Hero 09', 'Hero 08']);
    assert.equal(await page.locator('th[aria-sort="descending"]').innerText(), 'name ▼');
    await screenshot(page, 'console-list-sorted', t);

    // Filter: name[startsWith]=Hero 1 → 10, 11, 12; then sparse fields.
    await page.getByText('Filter and columns').click();
    // The operator picker offers what /openapi.json documents for the field: no `contains` on an integer id.
    await page.getByLabel('Field', { exact: true }).selectOption('id');
    assert.ok(!(await page.locator('select[name=filter-op] option').allInnerTexts()).includes('contains'));
    await page.getByLabel('Field', { exact: true }).selectOption('name');
    assert.ok((await page.locator('select[name=filter-op] option').allInnerTexts()).includes('starts with'));
    await page.getByLabel('Operator').selectOption('startsWith');
    await page.getByLabel('Value').fill('Hero 1');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3);
    assert.deepEqual(await names(), ['Hero 12', 'Hero 11', 'Hero 10']);
    assert.ok(await page.getByRole('button', { name: 'Remove filter name[startsWith] = Hero 1' }).isVisible());
    await page.getByLabel('Fields (sparse, comma-separated)').fill('number');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table thead th').length === 2);
    assert.deepEqual(await page.locator('table thead th').allInnerTexts(), ['id', 'number']);
    await screenshot(page, 'console-list-filtered', t);
    await page.getByRole('button', { name: 'Remove filter name[startsWith] = Hero 1' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 5);
  });

  it('creates a record with widgets from the schema: enum, reference picker, datetime, integer, boolean, JSON', async (t) => {
    await page.goto(`${env.base}/_/#/c/quests`);
    await page.getByRole('link', { name: 'New quests record' }).click();
    await page.getByLabel('title (required)').fill('Find the <b>donut</b>');
    assert.equal(await page.getByLabel('status').inputValue(), 'open', 'the enum starts at its default');
    assert.deepEqual(await page.locator('select[name=status] option').allInnerTexts(), ['(none)', 'open', 'done']);
    await page.getByLabel('status').selectOption('done');
    await page.getByRole('button', { name: 'Find characters…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a characters record' });
    await dialog.getByLabel('Search characters by name').fill('Hero 07');
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByRole('button', { name: '#7 Hero 07' }).waitFor();
    await screenshot(page, 'console-reference-picker', t);
    await dialog.getByRole('button', { name: '#7 Hero 07' }).click();
    assert.equal(await page.getByLabel('hero').inputValue(), '7');
    assert.equal(await page.getByLabel('dueAt').getAttribute('type'), 'datetime-local');
    await page.getByLabel('dueAt').fill('2030-01-02T03:04');
    assert.equal(await page.getByLabel('reward').getAttribute('type'), 'number');
    await page.getByLabel('reward').fill('12');
    await page.getByLabel('secret').selectOption('true');
    await page.getByLabel('details').fill('{"steps": [1, 2');
    assert.match(await page.locator('[data-field=details] .field-error').innerText(), /not valid JSON/);
    await page.getByLabel('details').fill('{"steps": [1, 2]}');
    await screenshot(page, 'console-create-form', t);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: /^quests #1$/ }).waitFor();
    const stored = (await env.api('GET', '/quests/1')).json;
    assert.equal(stored.title, 'Find the <b>donut</b>');
    assert.equal(stored.status, 'done');
    assert.equal(stored.hero, 7);
    assert.equal(stored.dueAt, new Date('2030-01-02T03:04').toISOString());
    assert.equal(stored.reward, 12);
    assert.equal(stored.secret, true);
    assert.deepEqual(stored.details, { steps: [1, 2] });
    // API data is text, never HTML.
    assert.equal(await page.locator('main b').count(), 0);
    assert.ok(await page.getByText('Find the <b>donut</b>').isVisible());
    assert.equal(await page.getByRole('link', { name: '7', exact: true }).getAttribute('href'), '#/c/characters/7');
    await screenshot(page, 'console-record-view', t);
  });

  it('shows a 422\'s errors at their fields', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters/new`);
    await page.getByLabel('name (required)').fill('Hero 03');
    await page.getByLabel('number').fill('x'.repeat(41));
    // maxlength stops typing past 40 in the input; the server is what must refuse the duplicate.
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('.problem').waitFor();
    await screenshot(page, 'console-create-409', t);
    assert.match(await page.locator('.problem').innerText(), /Unique value already used/);

    // A value the form lets through but the server refuses: minimum 0 on a quest's reward.
    await page.goto(`${env.base}/_/#/c/quests/new`);
    await page.getByLabel('title (required)').fill('Negative');
    await page.getByLabel('reward').fill('-5');
    await page.getByRole('button', { name: 'Create' }).click();
    const error = page.locator('[data-field=reward] .field-error');
    await error.waitFor();
    assert.match(await error.innerText(), /must be >= 0/);
    assert.equal(await page.getByLabel('reward').getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('.problem').innerText(), /Validation failed \(422\)/);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'reward');
    await screenshot(page, 'console-create-422', t);
  });

  it('edits with If-Match: a change behind the console\'s back gives a clear 412, resolved by loading the current version', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters/2/edit`);
    await page.getByLabel('number').waitFor();
    assert.equal(await page.getByLabel('number').inputValue(), '555-0102');
    await page.getByLabel('number').fill('555-9999');
    // Someone else changes the record meanwhile.
    assert.equal((await env.api('PATCH', '/characters/2', { number: '555-7777' }, { 'content-type': 'application/merge-patch+json' })).status, 200);
    await page.getByRole('button', { name: 'Save' }).click();
    const conflict = page.locator('.conflict');
    await conflict.waitFor();
    assert.match(await conflict.innerText(), /changed by someone else/);
    assert.match(await conflict.innerText(), /555-7777/);
    assert.match(await conflict.innerText(), /now at version 2/);
    await screenshot(page, 'console-edit-412', t);
    assert.equal((await env.api('GET', '/characters/2')).json.number, '555-7777', 'the 412 changed nothing');
    await page.getByRole('button', { name: 'Discard my changes and load the current version' }).click();
    assert.equal(await page.getByLabel('number').inputValue(), '555-7777');
    await page.getByLabel('number').fill('555-8888');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'characters #2', exact: true }).waitFor();
    const now = (await env.api('GET', '/characters/2')).json;
    assert.equal(now.number, '555-8888');
    assert.equal(now.version, 3);
    await screenshot(page, 'console-edit-resolved', t);
  });

  it('deletes only after a confirmation; Escape cancels', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters/12`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete characters #12?' });
    await dialog.waitFor();
    await screenshot(page, 'console-delete-confirm', t);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'focus starts on the safe choice');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await env.api('GET', '/characters/12')).status, 200);
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'characters', exact: true }).waitFor();
    assert.equal((await env.api('GET', '/characters/12')).status, 404);
    await screenshot(page, 'console-after-delete', t);
  });

  it('is readable at 390 px and 1280 px: no page overflow, tables scroll in their own box', async (t) => {
    for (const width of [390, 1280]) {
      const narrow = await browser.newPage({ width, height: 844 });
      await narrow.goto(`${env.base}/_/#/signin`);
      await narrow.evaluate((key) => sessionStorage.setItem('restwell.token', key), env.adminKey);
      for (const [hash, ready] of [['#/', 'Collections'], ['#/c/quests', 'quests'], ['#/c/quests/1', 'quests #1'], ['#/c/quests/1/edit', 'Edit quests #1'], ['#/signin', 'Sign in']] as const) {
        await narrow.goto(`${env.base}/_/${hash}`);
        await narrow.getByRole('heading', { name: ready, exact: true }).waitFor();
        await assertNoHorizontalOverflow(narrow, `${hash} at ${width} px`);
        await screenshot(narrow, `console-${width}-${hash.replace(/[#/]+/g, '-').replace(/^-|-$/g, '') || 'home'}`, t);
      }
    }
    assert.deepEqual(errors, []);
  });
});
