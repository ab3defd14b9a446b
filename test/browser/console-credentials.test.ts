import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, checkScreen, launchBrowser, screenshot, type TestBrowser } from '../../src/test-support/browser.js';
import { assertNoHorizontalOverflow, consoleServer, signInWithKey, watchErrors } from './console-support.js';

const skip = browserSkipReason();

/** Presses Tab until the focused element's accessible text matches, as a keyboard user would; fails after `max` presses. */
async function tabTo(page: Page, text: RegExp, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return '';
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : '';
      return `${label ?? ''} ${el.getAttribute('aria-label') ?? ''} ${el.textContent ?? ''}`.trim();
    });
    if (text.test(focused)) return;
  }
  assert.fail(`Tab never reached ${text}`);
}

/** The focused element shows a focus ring. */
async function assertFocusVisible(page: Page): Promise<void> {
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  assert.notEqual(outline, 'none', 'the focused element has a visible outline');
}

describe('web console: credentials, OAuth sign-in and keyboard use', { skip }, () => {
  let env: Awaited<ReturnType<typeof consoleServer>>;
  let browser: TestBrowser;

  before(async () => {
    env = await consoleServer();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await env?.server.close();
  });

  it('creates an API key (shown once, copied with a button), then revokes it after a confirmation', async (t) => {
    const page = await browser.newPage({ width: 1280 });
    const errors = watchErrors(page);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.base });
    await signInWithKey(page, env.base, env.adminKey);
    await page.getByRole('link', { name: 'API keys & clients' }).click();
    await page.getByRole('heading', { name: 'API keys', exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'Create an API key' });
    await form.getByLabel('Name').fill('deploy bot');
    // Scopes are picked from those the server checks, each with what it grants.
    const pick = form.getByRole('checkbox', { name: /^characters:write/ });
    assert.match(await form.getByText('create, update, delete characters').innerText(), /characters/);
    assert.equal(await form.getByRole('checkbox', { name: /^events:read/ }).count(), 1);
    assert.equal(await form.getByRole('checkbox', { name: /^webhooks:write/ }).count(), 1);
    assert.equal(await form.getByRole('checkbox', { name: /^\*/ }).count(), 1);
    await pick.check();
    await form.getByRole('checkbox', { name: /^quests:write/ }).check();
    // A typed scope nothing checks is warned about, with the one it most likely meant.
    await form.getByLabel('Other scopes').fill('charcters:write');
    await form.getByText('"charcters:write" is not a scope this server checks, so it grants nothing; did you mean characters:write?').waitFor();
    await checkScreen(page, 'console-api-key-scopes', t);
    await form.getByLabel('Other scopes').fill('');
    await form.locator('.scope-warning').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('.secret-box .secret');
    await secret.waitFor();
    const key = await secret.innerText();
    assert.match(key, /^rw_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: /Copied|Selected/ }).waitFor();
    if (await page.getByRole('button', { name: 'Copied' }).count()) assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    assert.match(await page.getByRole('table', { name: /API keys/ }).innerText(), /deploy bot\s+characters:write quests:write/);
    await checkScreen(page, 'console-api-key-created', t);
    // The new key works for what its scopes allow.
    const res = await fetch(`${env.base}/characters`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Made by the bot' }) });
    assert.equal(res.status, 201);

    await page.reload();
    assert.equal(await page.locator('.secret-box').count(), 0, 'the key is never shown again');
    await page.getByRole('button', { name: /^Revoke key deploy bot/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the key "deploy bot"?' });
    await screenshot(page, 'console-api-key-revoke-confirm', t);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Revoked key deploy bot.').waitFor();
    assert.equal(await page.getByRole('button', { name: /^Revoke key deploy bot/ }).count(), 0);
    const after = await fetch(`${env.base}/characters`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Too late' }) });
    assert.equal(after.status, 401);
    await screenshot(page, 'console-api-key-revoked', t);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('registers an OAuth client, signs in with its credentials (only the access token is kept), and signs out', async (t) => {
    const admin = await browser.newPage({ width: 1280 });
    await signInWithKey(admin, env.base, env.adminKey);
    await admin.goto(`${env.base}/_/#/credentials`);
    await admin.getByRole('heading', { name: 'OAuth clients', exact: true }).waitFor();
    const register = admin.getByRole('form', { name: 'Register an OAuth client' });
    await register.getByLabel('Name').fill('console tester');
    await register.getByRole('checkbox', { name: /^\*/ }).check();
    await admin.getByRole('button', { name: 'Register client' }).click();
    await admin.locator('.secret-box .secret').waitFor();
    const secret = await admin.locator('.secret-box .secret').innerText();
    const clientId = await admin.locator('.created code').innerText();
    assert.match(clientId, /^rwc_/);
    await screenshot(admin, 'console-oauth-client-created', t);

    const page = await browser.newPage({ width: 390, height: 844 });
    const errors = watchErrors(page);
    await page.goto(`${env.base}/_/#/signin`);
    await page.getByLabel('Client id').fill(clientId);
    await page.getByLabel('Client secret').fill('wrong');
    await page.getByRole('button', { name: 'Get a token and sign in' }).click();
    await page.locator('.problem').waitFor();
    assert.match(await page.locator('.problem').innerText(), /invalid_client/);
    await screenshot(page, 'console-oauth-wrong-secret', t);
    await page.getByLabel('Client secret').fill(secret);
    await page.getByRole('button', { name: 'Get a token and sign in' }).click();
    await page.locator('#session .who', { hasText: 'Signed in' }).waitFor();
    assert.match(await page.locator('#session').innerText(), new RegExp(`OAuth client ${clientId}`));
    const stored = await page.evaluate(() => ({ ...sessionStorage }));
    assert.match(stored['restwell.token'], /^eyJ/, 'a JWT access token');
    assert.ok(!JSON.stringify(stored).includes(secret), 'the client secret is not kept');
    await assertNoHorizontalOverflow(page, 'signed in at 390 px');
    await screenshot(page, 'console-oauth-signed-in-390', t);
    // The token works: the event log needs one.
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('button', { name: 'Go live' }).waitFor();
    await assertNoHorizontalOverflow(page, 'events at 390 px');
    await page.getByRole('link', { name: 'API keys & clients' }).click();
    await page.getByRole('heading', { name: 'OAuth clients', exact: true }).waitFor();
    await assertNoHorizontalOverflow(page, 'credentials at 390 px');
    await checkScreen(page, 'console-credentials-390', t);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('restwell.token')), null);
    await page.goto(`${env.base}/_/#/events`);
    await page.locator('.problem').waitFor();
    assert.match(await page.locator('.problem').innerText(), /Authentication required \(401\)/);
    await screenshot(page, 'console-events-signed-out', t);
    assert.deepEqual(errors, []);
  });

  it('works by keyboard alone: sign in, open a collection, create a record', async (t) => {
    const page = await browser.newPage({ width: 1280 });
    const errors = watchErrors(page);
    await page.goto(`${env.base}/_/`);
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    await tabTo(page, /^Sign in$/);
    await assertFocusVisible(page);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The key field has focus on arrival.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'api-key');
    await page.keyboard.type(env.adminKey);
    await page.keyboard.press('Enter');
    await page.getByText('Signed in (API key)').waitFor();
    // Signed in, `#/` is the dashboard; the header's Collections link leads on.
    await tabTo(page, /^Collections$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Collections', exact: true }).waitFor();
    await tabTo(page, /^characters/);
    await assertFocusVisible(page);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'characters', exact: true }).waitFor();
    await tabTo(page, /^New character$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New character' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'name');
    await page.keyboard.type('Keyboard Kid');
    await page.keyboard.press('Tab');
    await page.keyboard.type('555-0000');
    await assertFocusVisible(page);
    await screenshot(page, 'console-keyboard-create', t);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^Character #\d+$/ }).waitFor();
    const list = (await env.api('GET', '/characters?name=Keyboard%20Kid')).json._embedded.characters;
    assert.equal(list.length, 1);
    assert.equal(list[0].number, '555-0000');
    // A confirmation dialog: Tab stays inside, Escape closes, focus returns to the button.
    await tabTo(page, /^Delete$/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog'))), 'focus stays in the dialog');
    }
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Delete');
    await screenshot(page, 'console-keyboard-after-dialog', t);
    assert.deepEqual(errors, []);
  });
});
