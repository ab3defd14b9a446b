import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, screenshot, type TestBrowser } from '../../src/test-support/browser.js';
import { engines } from '../../src/test-support/engines.js';
import { waitFor } from '../../src/test-support/wait-for.js';
import { ROOT, startServe } from '../support-process.js';

/**
 * The front-end in examples/json-server/public, written for json-server (relative URLs, `_page`,
 * `_sort`, `q`, `_expand`, `_embed`, `res.json()` after every call), driven through its DOM. The same
 * script runs against json-server 0.17.4 itself, which shows the front-end is right, and then,
 * unchanged, against `restwell serve db.json --static public`, which shows Restwell serves it.
 */

const skip = browserSkipReason();
/** Relative to the repository root: json-server's CLI joins --static onto its working directory, even an absolute path. */
const PUBLIC = 'examples/json-server/public';
const DB_JSON = join(ROOT, 'examples/json-server/db.json');

/** A copy of the example db.json in a temp dir: json-server --watch writes to its file, and the repo's stays as it is. */
function copyOfDb(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'frontend-db-')), 'db.json');
  copyFileSync(DB_JSON, file);
  return file;
}

/** A port nobody listens on now (json-server's CLI prints the port it was given, so port 0 would not tell us which). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

interface Running {
  origin: string;
  stop(): Promise<void>;
}

/** json-server 0.17.4's own CLI, as its README runs it, serving the front-end with --static. */
async function startJsonServer(): Promise<Running> {
  const port = await freePort();
  const bin = join(ROOT, 'node_modules/json-server/lib/cli/bin.js');
  const child = spawn(process.execPath, [bin, '--watch', copyOfDb(), '--static', PUBLIC, '--port', String(port), '--host', '127.0.0.1'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = once(child, 'exit');
  const origin = `http://127.0.0.1:${port}`;
  // It prints its banner before the socket is bound, so wait until the API answers.
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`json-server exited (${child.exitCode}):\n${out}`);
    return fetch(`${origin}/profile`).then((r) => r.ok, () => false);
  }, 'json-server to answer');
  return {
    origin,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * `restwell serve <copy of db.json> --static <public dir>`: the json-server profile (bare arrays,
 * X-Total-Count, Link), writes open on loopback, the front-end's files from the same origin.
 * startServe returns once the start-up banner names the port, which Restwell prints after it listens.
 */
async function startRestwell(database: string): Promise<Running> {
  const serve = await startServe([copyOfDb(), '--static', join(ROOT, PUBLIC), '--db', database]);
  return { origin: serve.url, stop: () => serve.stop() };
}

/** Waits until the list is loaded and shows page `n` with these titles, in this order. */
async function showsPage(page: Page, n: number, expected: string[]): Promise<void> {
  // What the page shows instead, for the failure message.
  const shown = () =>
    page
      .evaluate(() => {
        const text = (selector: string) => document.querySelector(selector)?.textContent;
        const titles = [...document.querySelectorAll('#posts > li .title')].map((e) => e.textContent);
        return `page ${document.querySelector('#posts')?.getAttribute('data-page')}: ${text('#page-info')} ${JSON.stringify(titles)}; status: ${text('#status')}`;
      })
      .catch((err: Error) => err.message);
  await page.waitForFunction(
    ({ n, expected }) => {
      const list = document.querySelector('#posts');
      if (!list || list.getAttribute('aria-busy') !== 'false' || list.getAttribute('data-page') !== String(n)) return false;
      const shown = [...list.querySelectorAll(':scope > li .title')].map((e) => e.textContent);
      return JSON.stringify(shown) === JSON.stringify(expected);
    },
    { n, expected },
  ).catch(async (err: Error) => {
    throw new Error(`expected page ${n} with ${JSON.stringify(expected)}; the page shows ${await shown()}`, { cause: err });
  });
}

const statusText = (page: Page) => page.textContent('#status');

/** The whole walk through the front-end, the same for every server. */
async function useTheFrontEnd(t: TestContext, page: Page, origin: string, label: string): Promise<void> {
  const api = async (path: string) => {
    const res = await fetch(`${origin}${path}`);
    return { status: res.status, body: await res.json() };
  };
  await page.goto(`${origin}/`);

  await t.test('the first page: 5 posts newest first, their authors and comments, and the profile', async () => {
    await showsPage(page, 1, ['A singular profile', 'Deleting records', 'Replacing with PUT', 'Editing with PATCH', 'Zebra crossings']);
    assert.equal(await page.textContent('#page-info'), 'Page 1 of 3 · 12 posts');
    assert.equal(await page.isDisabled('#prev'), true);
    assert.equal(await page.textContent('#posts > li[data-id="12"] .author'), 'Grace', '_expand=user');
    assert.equal(await page.textContent('#posts > li[data-id="11"] .author'), 'Ada');
    assert.equal(await page.textContent('#posts > li[data-id="10"] .comment-count'), '1 comment', '_embed=comments');
    assert.equal(await page.textContent('#posts > li[data-id="10"] .comments li'), 'Nice and short');
    assert.equal(await page.textContent('#posts > li[data-id="11"] .comment-count'), '0 comments');
    await page.waitForSelector('#profile:text("Profile: typicode")');
    await screenshot(page, `json-server-frontend-${label}-page-1`, t);
  });

  await t.test('next and previous follow the Link header', async () => {
    await page.click('#next');
    await showsPage(page, 2, ['Expanding authors', 'Embedding comments', 'Full-text search', 'Sorting a collection', 'Paging with Link headers']);
    assert.equal(await page.textContent('#posts > li[data-id="3"] .comment-count'), '3 comments');
    assert.deepEqual(await page.$$eval('#posts > li[data-id="3"] .comments li', (els) => els.map((e) => e.textContent)), ['Link headers, finally', 'Works with _limit too', 'What about _per_page?']);
    await page.click('#next');
    await showsPage(page, 3, ['Restwell', 'json-server']);
    assert.equal(await page.textContent('#page-info'), 'Page 3 of 3 · 12 posts');
    assert.equal(await page.isDisabled('#next'), true, 'no next link on the last page');
    assert.equal(await page.textContent('#posts > li[data-id="1"] .author'), 'typicode');
    await page.click('#prev');
    await showsPage(page, 2, ['Expanding authors', 'Embedding comments', 'Full-text search', 'Sorting a collection', 'Paging with Link headers']);
  });

  await t.test('sorting starts again at the first page', async () => {
    await page.selectOption('#sort', 'views:desc');
    await showsPage(page, 1, ['Deleting records', 'Full-text search', 'Paging with Link headers', 'Expanding authors', 'Restwell']);
    await page.selectOption('#sort', 'title:asc');
    await showsPage(page, 1, ['A singular profile', 'Deleting records', 'Editing with PATCH', 'Embedding comments', 'Expanding authors']);
    await page.selectOption('#sort', 'id:asc');
    await showsPage(page, 1, ['json-server', 'Restwell', 'Paging with Link headers', 'Sorting a collection', 'Full-text search']);
    await page.selectOption('#sort', 'id:desc');
    await showsPage(page, 1, ['A singular profile', 'Deleting records', 'Replacing with PUT', 'Editing with PATCH', 'Zebra crossings']);
  });

  await t.test('search with q (any field, any case) and with title_like', async () => {
    await page.fill('#search', 'ZEBRA');
    await page.click('#query button[type=submit]');
    await showsPage(page, 1, ['Zebra crossings']);
    assert.equal(await page.textContent('#page-info'), 'Page 1 of 1 · 1 posts');
    assert.equal(await page.isDisabled('#next'), true);
    await page.selectOption('#search-in', 'title_like');
    await page.fill('#search', 'with');
    await page.click('#query button[type=submit]');
    await showsPage(page, 1, ['Replacing with PUT', 'Editing with PATCH', 'Paging with Link headers']);
    await page.fill('#search', '');
    await page.click('#query button[type=submit]');
    await showsPage(page, 1, ['A singular profile', 'Deleting records', 'Replacing with PUT', 'Editing with PATCH', 'Zebra crossings']);
    assert.equal(await page.textContent('#page-info'), 'Page 1 of 3 · 12 posts');
  });

  let id = '';
  await t.test('create: POST, and the new post heads the list with its author', async () => {
    await page.fill('#new-title', 'Written in the browser');
    await page.fill('#new-views', '7');
    await page.selectOption('#new-user', { label: 'Ada' });
    await page.click('#create button[type=submit]');
    await showsPage(page, 1, ['Written in the browser', 'A singular profile', 'Deleting records', 'Replacing with PUT', 'Editing with PATCH']);
    assert.equal(await page.textContent('#page-info'), 'Page 1 of 3 · 13 posts');
    id = (await page.getAttribute('#posts > li:first-child', 'data-id'))!;
    assert.equal(await statusText(page), `Created post ${id}`);
    assert.equal(await page.textContent(`#posts > li[data-id="${id}"] .author`), 'Ada');
    assert.equal(await page.textContent(`#posts > li[data-id="${id}"] .comment-count`), '0 comments');
    const { body } = await api(`/posts/${id}`);
    assert.deepEqual({ title: body.title, views: body.views, userId: body.userId, tags: body.tags }, { title: 'Written in the browser', views: 7, userId: 2, tags: [] });
  });

  await t.test('edit the title: PATCH', async () => {
    await page.fill(`#posts > li[data-id="${id}"] .edit-title input[name=title]`, 'Renamed in the browser');
    await page.click(`#posts > li[data-id="${id}"] .edit-title button`);
    await page.waitForSelector(`#posts > li[data-id="${id}"] .title:text-is("Renamed in the browser")`);
    assert.equal(await statusText(page), `Renamed post ${id}`);
    const { body } = await api(`/posts/${id}`);
    assert.deepEqual({ title: body.title, views: body.views, userId: body.userId }, { title: 'Renamed in the browser', views: 7, userId: 2 }, 'the other fields are kept');
  });

  await t.test('replace: PUT with what was read, without the embedded and expanded members', async () => {
    await page.fill(`#posts > li[data-id="${id}"] .replace input[name=title]`, 'Replaced in the browser');
    await page.fill(`#posts > li[data-id="${id}"] .replace input[name=views]`, '99');
    await page.click(`#posts > li[data-id="${id}"] .replace button`);
    await page.waitForSelector(`#posts > li[data-id="${id}"] .title:text-is("Replaced in the browser")`);
    assert.equal(await page.textContent(`#posts > li[data-id="${id}"] .views`), '99');
    assert.equal(await page.textContent(`#posts > li[data-id="${id}"] .author`), 'Ada');
    assert.equal(await statusText(page), `Replaced post ${id}`);
    const { body } = await api(`/posts/${id}`);
    assert.deepEqual({ title: body.title, views: body.views, userId: body.userId }, { title: 'Replaced in the browser', views: 99, userId: 2 });
    assert.equal(body.user, undefined, 'the expanded author was not stored');
    assert.equal(body.comments, undefined, 'nor the embedded comments');
  });

  await t.test('delete: DELETE, and the list refreshes without it', async () => {
    await page.click(`#posts > li[data-id="${id}"] .delete`);
    await showsPage(page, 1, ['A singular profile', 'Deleting records', 'Replacing with PUT', 'Editing with PATCH', 'Zebra crossings']);
    assert.equal(await page.textContent('#page-info'), 'Page 1 of 3 · 12 posts');
    assert.equal(await statusText(page), `Deleted post ${id}`);
    assert.equal((await api(`/posts/${id}`)).status, 404);
    // Deleting the last post of the last page shows the page before it.
    await page.selectOption('#sort', 'id:asc');
    await showsPage(page, 1, ['json-server', 'Restwell', 'Paging with Link headers', 'Sorting a collection', 'Full-text search']);
    await page.click('#next');
    await page.waitForSelector('#posts[data-page="2"][aria-busy=false]');
    await page.click('#next');
    await showsPage(page, 3, ['Deleting records', 'A singular profile']);
    await page.click('#posts > li[data-id="12"] .delete');
    await showsPage(page, 3, ['Deleting records']);
    await page.click('#posts > li[data-id="11"] .delete');
    await showsPage(page, 2, ['Embedding comments', 'Expanding authors', 'Zebra crossings', 'Editing with PATCH', 'Replacing with PUT']);
    assert.equal(await page.textContent('#page-info'), 'Page 2 of 2 · 10 posts');
    assert.equal(await page.isDisabled('#next'), true);
    await screenshot(page, `json-server-frontend-${label}-after-deletes`, t);
  });

  await t.test('no write failed', async () => {
    assert.equal(await page.$eval('#status', (e) => e.classList.contains('error')), false, await statusText(page) ?? '');
  });

  await t.test('deleting a post that has comments deletes its comments too, as json-server does', async () => {
    await page.click('#prev');
    await showsPage(page, 1, ['json-server', 'Restwell', 'Paging with Link headers', 'Sorting a collection', 'Full-text search']);
    await page.click('#posts > li[data-id="3"] .delete');
    await showsPage(page, 1, ['json-server', 'Restwell', 'Sorting a collection', 'Full-text search', 'Embedding comments']);
    assert.equal(await statusText(page), 'Deleted post 3');
    assert.deepEqual((await api('/comments?postId=3')).body, []);
  });
}

/** Runs the walk on a fresh page of `browser` and checks the page raised no script error. */
async function walk(t: TestContext, browser: TestBrowser, origin: string, label: string): Promise<void> {
  const problems: string[] = [];
  const page = await browser.newPage();
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // The browser's own request for /favicon.ico is a 404 on both servers.
    if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  await useTheFrontEnd(t, page, origin, label);
  assert.deepEqual(problems, []);
}

describe('the json-server front-end (examples/json-server/public) in Chromium', { skip }, () => {
  let browser: TestBrowser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('against json-server 0.17.4 itself (the control: the front-end is right)', async (t) => {
    const server = await startJsonServer();
    try {
      await walk(t, browser, server.origin, 'json-server');
    } finally {
      await server.stop();
    }
  });

  for (const engine of engines) {
    test(`unchanged against restwell serve db.json --static (${engine.name})`, async (t) => {
      const server = await startRestwell(engine.freshUrl());
      try {
        await walk(t, browser, server.origin, `restwell-${engine.name}`);
      } finally {
        await server.stop();
      }
    });
  }

  test('the repository db.json was not written', () => {
    assert.equal(JSON.parse(readFileSync(DB_JSON, 'utf8')).posts.length, 12);
  });
});
