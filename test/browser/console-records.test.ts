import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, checkScreen, launchBrowser, type TestBrowser } from '../../src/test-support/browser.js';
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

  const names = () => page.locator('table tbody tr td:nth-child(2)').allInnerTexts();

  it('#/c lists every collection with its record count; anonymous, no action it may not take', async (t) => {
    await page.goto(`${env.base}/_/#/c`);
    await page.getByRole('heading', { name: 'Collections', exact: true }).waitFor();
    assert.ok(await page.getByText('Anonymous').isVisible());
    for (const name of ['characters', 'messages', 'quests']) assert.ok(await page.getByRole('link', { name, exact: true }).isVisible(), name);
    const card = page.locator('.coll-cards li', { has: page.getByRole('link', { name: 'characters', exact: true }) });
    await card.locator('.count', { hasText: '12' }).waitFor();
    assert.match(await card.innerText(), /12\s+records/);
    // Anonymous callers may read characters but not write them: no "New character" anywhere.
    assert.equal(await page.getByRole('link', { name: /^New / }).count(), 0);
    await checkScreen(page, 'console-collections-home-anonymous', t);
    await page.getByRole('link', { name: 'characters', exact: true }).click();
    await page.locator('table tbody tr').first().waitFor();
    assert.equal(await page.locator('table tbody tr').count(), 12);
    assert.equal(await page.locator('#list-total').innerText(), '12 characters');
    assert.equal(await page.getByRole('link', { name: 'New character' }).count(), 0);
  });

  it('signs in with a pasted API key, kept in sessionStorage (no cookie)', async () => {
    await signInWithKey(page, env.base, env.adminKey);
    assert.match(await page.locator('#session').innerText(), /Signed in \(API key\)/);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('restwell.token')), env.adminKey);
    assert.deepEqual(await page.context().cookies(), []);
  });

  it('shows the total and the sidebar counts; "« First" is disabled on the first page; pages by the server\'s links; sorts', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters?limit=5`);
    await page.locator('table tbody tr').first().waitFor();
    assert.deepEqual(await names(), ['Hero 01', 'Hero 02', 'Hero 03', 'Hero 04', 'Hero 05']);
    assert.equal(await page.locator('#list-total').innerText(), '12 characters');
    const side = page.getByRole('navigation', { name: 'Collections' });
    const current = side.getByRole('link', { name: /^characters/ });
    assert.equal(await current.getAttribute('aria-current'), 'page');
    await current.locator('.count', { hasText: '12' }).waitFor();
    assert.equal(await page.getByRole('link', { name: '« First' }).getAttribute('aria-disabled'), 'true');
    assert.equal(await page.getByRole('link', { name: '‹ Previous' }).getAttribute('aria-disabled'), 'true');
    await checkScreen(page, 'console-list-first-page', t);
    await page.getByRole('link', { name: 'Next ›' }).click();
    await page.getByRole('cell', { name: 'Hero 06' }).waitFor();
    assert.deepEqual(await names(), ['Hero 06', 'Hero 07', 'Hero 08', 'Hero 09', 'Hero 10']);
    assert.equal(await page.getByRole('link', { name: '« First' }).getAttribute('aria-disabled'), null);
    assert.equal(await page.locator('table caption').innerText(), 'characters: 5 of 12 shown');
    await page.getByRole('link', { name: '‹ Previous' }).click();
    await page.getByRole('cell', { name: 'Hero 01' }).waitFor();

    // Sort: a click on a header sorts ascending, a second click descending.
    await page.getByRole('link', { name: /^name, sort ascending/ }).click();
    await page.waitForFunction(() => location.hash.includes('sort=name'));
    await page.getByRole('link', { name: /^name, sort descending/ }).click();
    await page.getByRole('cell', { name: 'Hero 12' }).waitFor();
    assert.deepEqual(await names(), ['Hero 12', 'Hero 11', 'Hero 10', 'Hero 09', 'Hero 08']);
    assert.equal(await page.locator('th[aria-sort="descending"]').innerText(), 'name ▼');
    // Per page: back to the first page with the new size.
    await page.getByLabel('Per page').selectOption('10');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 10);
  });

  it('searches with a visible q= box and filters with removable chips; the total counts the matches', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters?limit=5`);
    await page.locator('table tbody tr').first().waitFor();
    // Search is in view, not in a collapsed section.
    const search = page.getByRole('search', { name: 'Search characters' });
    assert.ok(await search.isVisible());
    await search.getByLabel('Search characters').fill('hero 1');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3);
    assert.equal(await page.locator('#list-total').innerText(), '3 matching characters');
    await page.getByRole('button', { name: 'Remove search hero 1' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 5);

    // The operator picker offers what /openapi.json documents for the field: no `contains` on an integer id.
    await page.getByLabel('Field', { exact: true }).selectOption('id');
    assert.ok(!(await page.locator('select[name=filter-op] option').allInnerTexts()).includes('contains'));
    await page.getByLabel('Field', { exact: true }).selectOption('name');
    assert.ok((await page.locator('select[name=filter-op] option').allInnerTexts()).includes('starts with'));
    await page.getByLabel('Operator').selectOption('startsWith');
    await page.getByLabel('Value').fill('Hero 1');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3);
    await page.getByLabel('Field', { exact: true }).selectOption('number');
    await page.getByLabel('Value').fill('555-0111');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    assert.equal(await page.locator('#list-total').innerText(), '1 matching character');
    const chips = page.getByRole('list', { name: 'Active filters' });
    assert.deepEqual(await chips.locator('li > span').allInnerTexts(), ['name starts with Hero 1', 'number = 555-0111']);
    await checkScreen(page, 'console-list-filtered', t);
    await page.getByRole('button', { name: 'Remove filter number = 555-0111' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 3);
    assert.equal(await page.getByRole('button', { name: 'Remove filter name starts with Hero 1' }).count(), 1);
    await page.getByRole('button', { name: 'Remove filter name starts with Hero 1' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 5);
    assert.equal(await chips.count(), 0);
  });

  it('picks columns with checkboxes, remembered per collection', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters?limit=5`);
    await page.locator('table tbody tr').first().waitFor();
    assert.deepEqual(await page.locator('table thead th').allInnerTexts(), ['id', 'name', 'number']);
    await page.getByText('Columns', { exact: true }).click();
    const picker = page.getByRole('group', { name: 'Show columns' });
    assert.equal(await picker.getByRole('checkbox', { name: 'id' }).isDisabled(), true, 'id always shows: it links to the record');
    await picker.getByRole('checkbox', { name: 'number' }).uncheck();
    await picker.getByRole('checkbox', { name: 'createdAt' }).check();
    await page.waitForFunction(() => [...document.querySelectorAll('table thead th')].map((th) => th.textContent).join() === 'id,name,createdAt');
    // createdAt is a datetime: relative text in a <time>, the exact time on hover.
    const time = page.locator('table tbody tr').first().locator('time');
    assert.match(await time.innerText(), /ago|now/);
    assert.ok(!Number.isNaN(Date.parse(String(await time.getAttribute('datetime')))));
    assert.match(String(await time.getAttribute('title')), /\d{4}-\d\d-\d\dT/);
    await checkScreen(page, 'console-column-picker', t);
    assert.deepEqual(JSON.parse(String(await page.evaluate(() => localStorage.getItem('restwell.columns.characters')))), ['id', 'name', 'createdAt']);
    await page.reload();
    await page.locator('table tbody tr').first().waitFor();
    assert.deepEqual(await page.locator('table thead th').allInnerTexts(), ['id', 'name', 'createdAt']);
    // Another collection keeps its own columns.
    await page.goto(`${env.base}/_/#/c/quests`);
    await page.getByRole('heading', { name: 'quests', exact: true }).waitFor();
    // The heading shows before the list arrives: wait for the table's own columns.
    await page.locator('table thead th', { hasText: 'title' }).first().waitFor();
    await page.goto(`${env.base}/_/#/c/characters`);
    await page.getByRole('cell', { name: 'Hero 01' }).waitFor();
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('group', { name: 'Show columns' }).getByRole('checkbox', { name: 'number' }).check();
    await page.getByRole('group', { name: 'Show columns' }).getByRole('checkbox', { name: 'createdAt' }).uncheck();
  });

  it('works by keyboard: the column picker opens with Enter and toggles with Space; a chip is removed with Enter', async () => {
    await page.goto(`${env.base}/_/#/c/characters?number=555-0104`);
    await page.getByRole('cell', { name: 'Hero 04' }).waitFor();
    await page.locator('.columns-picker summary').focus();
    await page.keyboard.press('Enter');
    const box = page.getByRole('group', { name: 'Show columns' }).getByRole('checkbox', { name: 'number' });
    await box.waitFor();
    await box.focus();
    await page.keyboard.press('Space');
    await page.waitForFunction(() => [...document.querySelectorAll('table thead th')].map((th) => th.textContent).join() === 'id,name');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => [...document.querySelectorAll('table thead th')].map((th) => th.textContent).join() === 'id,name,number');
    await page.getByRole('button', { name: 'Remove filter number = 555-0104' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length > 1);
  });

  it('creates a record with widgets from the schema, under singular labels; the list shows it compactly', async (t) => {
    await page.goto(`${env.base}/_/#/c/quests`);
    await page.getByRole('link', { name: 'New quest', exact: true }).click();
    await page.getByRole('heading', { name: 'New quest', exact: true }).waitFor();
    await page.getByLabel('title (required)').fill('Find the <b>donut</b>, then walk all the way back home through the forest');
    assert.equal(await page.getByLabel('status').inputValue(), 'open', 'the enum starts at its default');
    assert.deepEqual(await page.locator('select[name=status] option').allInnerTexts(), ['(none)', 'open', 'done']);
    await page.getByLabel('status').selectOption('done');
    await page.getByRole('button', { name: 'Find a character…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a character' });
    await dialog.getByLabel('Search characters by name').fill('Hero 07');
    await dialog.getByRole('button', { name: 'Search' }).click();
    await dialog.getByRole('button', { name: '#7 Hero 07' }).waitFor();
    await checkScreen(page, 'console-reference-picker', t);
    await dialog.getByRole('button', { name: '#7 Hero 07' }).click();
    assert.equal(await page.getByLabel('hero').inputValue(), '7');
    assert.equal(await page.getByLabel('dueAt').getAttribute('type'), 'datetime-local');
    await page.getByLabel('dueAt').fill('2030-01-02T03:04');
    assert.equal(await page.getByLabel('reward').getAttribute('type'), 'number');
    await page.getByLabel('reward').fill('12');
    await page.getByLabel('secret').selectOption('true');
    await page.getByLabel('details').fill('{"steps": [1, 2');
    assert.match(await page.locator('[data-field=details] .field-error').innerText(), /not valid JSON/);
    const details = { steps: [1, 2], notes: 'bring a lantern and a very long rope, just in case' };
    await page.getByLabel('details').fill(JSON.stringify(details));
    await checkScreen(page, 'console-create-form', t);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Quest #1', exact: true }).waitFor();
    const stored = (await env.api('GET', '/quests/1')).json;
    assert.equal(stored.title, 'Find the <b>donut</b>, then walk all the way back home through the forest');
    assert.equal(stored.status, 'done');
    assert.equal(stored.hero, 7);
    assert.equal(stored.dueAt, new Date('2030-01-02T03:04').toISOString());
    assert.equal(stored.reward, 12);
    assert.equal(stored.secret, true);
    assert.deepEqual(stored.details, details);
    // API data is text, never HTML; the reference shows the record's name and links to it.
    assert.equal(await page.locator('main b').count(), 0);
    assert.ok(await page.getByText('Find the <b>donut</b>', { exact: false }).isVisible());
    const hero = page.getByRole('link', { name: 'Hero 07 (#7)' });
    await hero.waitFor();
    assert.equal(await hero.getAttribute('href'), '#/c/characters/7');
    await checkScreen(page, 'console-record-view', t);

    // The list: the reference by name (one batched request), JSON and long text cut short with the whole on hover, dates relative.
    const referenceRequests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/characters') referenceRequests.push(r.url());
    });
    await page.goto(`${env.base}/_/#/c/quests`);
    const row = page.locator('table tbody tr').first();
    await row.getByRole('link', { name: 'Hero 07' }).waitFor();
    assert.equal(await row.getByRole('link', { name: 'Hero 07' }).getAttribute('href'), '#/c/characters/7');
    assert.ok(referenceRequests.some((u) => new URL(u).searchParams.get('id[in]') === '7'), referenceRequests.join());
    const json = row.locator('.json');
    assert.equal(await json.getAttribute('title'), JSON.stringify(details));
    assert.ok((await json.innerText()).endsWith('…'));
    const title = row.locator('td:nth-child(2) .clip');
    assert.equal(await title.getAttribute('title'), stored.title);
    assert.match(await row.locator('time').first().innerText(), /^in \d+ years$/);
    assert.equal(await row.locator('time').first().getAttribute('datetime'), stored.dueAt);
    await checkScreen(page, 'console-list-cells', t);
  });

  it('shows a 409 (unique value) and a 422 at their fields', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters/new`);
    await page.getByRole('heading', { name: 'New character', exact: true }).waitFor();
    await page.getByLabel('name (required)').fill('Hero 03');
    await page.getByRole('button', { name: 'Create' }).click();
    const taken = page.locator('[data-field=name] .field-error');
    await taken.waitFor();
    assert.match(await taken.innerText(), /must be unique; "Hero 03" is taken/);
    assert.equal(await page.getByLabel('name (required)').getAttribute('aria-invalid'), 'true');
    assert.match(await page.locator('.problem').innerText(), /Unique value already used \(409\)/);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'name');
    await checkScreen(page, 'console-create-409', t);

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
  });

  it('edits with If-Match: a change behind the console\'s back gives a clear 412, resolved by loading the current version', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters/2/edit`);
    await page.getByRole('heading', { name: 'Edit character #2', exact: true }).waitFor();
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
    await checkScreen(page, 'console-edit-412', t);
    assert.equal((await env.api('GET', '/characters/2')).json.number, '555-7777', 'the 412 changed nothing');
    await page.getByRole('button', { name: 'Discard my changes and load the current version' }).click();
    assert.equal(await page.getByLabel('number').inputValue(), '555-7777');
    await page.getByLabel('number').fill('555-8888');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Character #2', exact: true }).waitFor();
    const now = (await env.api('GET', '/characters/2')).json;
    assert.equal(now.number, '555-8888');
    assert.equal(now.version, 3);
  });

  it('edits a JSON field by replacing it, not merging into the old value', async () => {
    await page.goto(`${env.base}/_/#/c/quests/1/edit`);
    await page.getByLabel('details').waitFor();
    // A required field left empty is refused at the field (a patch would otherwise keep the old value).
    await page.getByLabel('title (required)').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-field=title] .field-error', { hasText: 'is required' }).waitFor();
    await page.getByLabel('title (required)').fill('Find the donut');
    await page.getByLabel('details').fill('{"steps": [3]}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Quest #1', exact: true }).waitFor();
    const quest = (await env.api('GET', '/quests/1')).json;
    assert.deepEqual(quest.details, { steps: [3] });
    assert.equal(quest.title, 'Find the donut');
    assert.equal(quest.hero, 7, 'the fields left alone keep their values');
  });

  it('deletes only after a confirmation; Escape cancels; the count follows', async (t) => {
    await page.goto(`${env.base}/_/#/c/characters/12`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete character #12?' });
    await dialog.waitFor();
    await checkScreen(page, 'console-delete-confirm', t);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'focus starts on the safe choice');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await env.api('GET', '/characters/12')).status, 200);
    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'characters', exact: true }).waitFor();
    assert.equal((await env.api('GET', '/characters/12')).status, 404);
    await page.locator('#list-total', { hasText: '11 characters' }).waitFor();
    await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: /^characters/ }).locator('.count', { hasText: '11' }).waitFor();
  });

  it('offers only what the token may do: a key with characters:write only gets no "New quest", no Edit or Delete of a quest', async (t) => {
    const key = (await env.server.context.auth.apiKeys.create({ name: 'writer', scopes: ['characters:write'] })).key;
    const limited = await browser.newPage({ width: 1280 });
    const limitedErrors = watchErrors(limited);
    await signInWithKey(limited, env.base, key);
    await limited.goto(`${env.base}/_/#/c`);
    await limited.getByRole('link', { name: 'New character', exact: true }).waitFor();
    assert.equal(await limited.getByRole('link', { name: 'New quest' }).count(), 0);
    assert.equal(await limited.getByRole('link', { name: 'New message' }).count(), 0);
    await checkScreen(limited, 'console-collections-home-limited', t);
    await limited.goto(`${env.base}/_/#/c/quests`);
    await limited.getByRole('cell', { name: '1', exact: true }).waitFor();
    assert.equal(await limited.getByRole('link', { name: /^New / }).count(), 0);
    await limited.goto(`${env.base}/_/#/c/quests/1`);
    await limited.getByRole('heading', { name: 'Quest #1' }).waitFor();
    await limited.getByText('ETag:').waitFor();
    assert.equal(await limited.getByRole('link', { name: 'Edit' }).count(), 0);
    assert.equal(await limited.getByRole('button', { name: 'Delete' }).count(), 0);
    await limited.goto(`${env.base}/_/#/c/characters/1`);
    await limited.getByRole('link', { name: 'Edit' }).waitFor();
    assert.equal(await limited.getByRole('button', { name: 'Delete' }).count(), 1);
    await limited.goto(`${env.base}/_/#/c/quests/new`);
    await limited.getByText('This token may not create quests').waitFor();
    await limited.goto(`${env.base}/_/#/c/quests/1/edit`);
    await limited.getByText('This token may not change quests').waitFor();
    assert.deepEqual(limitedErrors, []);
    await limited.context().close();
  });

  it('is readable at 390 px and 1280 px, light and dark: no page overflow, tables scroll in their own box', async (t) => {
    for (const width of [390, 1280]) {
      const narrow = await browser.newPage({ width, height: 844 });
      const narrowErrors = watchErrors(narrow);
      await narrow.goto(`${env.base}/_/#/signin`);
      await narrow.evaluate((key) => sessionStorage.setItem('restwell.token', key), env.adminKey);
      for (const [hash, ready] of [['#/c', 'Collections'], ['#/c/quests', 'quests'], ['#/c/characters?name[startsWith]=Hero', 'characters'], ['#/c/quests/1', 'Quest #1'], ['#/c/quests/1/edit', 'Edit quest #1'], ['#/c/characters/new', 'New character']] as const) {
        await narrow.goto(`${env.base}/_/${hash}`);
        await narrow.getByRole('heading', { name: ready, exact: true }).waitFor();
        await narrow.locator('main :is(table, form, .coll-cards, dl.members)').first().waitFor();
        await assertNoHorizontalOverflow(narrow, `${hash} at ${width} px`);
        await checkScreen(narrow, `console-${width}-${hash.replace(/[#/?=[\]]+/g, '-').replace(/^-|-$/g, '')}`, t);
      }
      assert.deepEqual(narrowErrors, []);
      await narrow.context().close();
    }
    assert.deepEqual(errors, []);
  });
});
