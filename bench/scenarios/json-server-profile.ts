import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonServerDb } from '../../src/test-support/json-server-db.js';
import { notRun, reason, runRow, type RowSpec } from '../context.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { RequestPlan, Row } from '../load.js';
import { getPath } from '../requests.js';
import { restwellCli, startJsonServer, startRestwell, withServer } from '../servers.js';
import type { BenchContext } from '../settings.js';

/** Rows of the generated db.json: a tenth users, three tenths posts (3,000), the rest comments. */
const ROWS = 10_000;
const POSTS = (ROWS * 3) / 10;

/** The json-server spelling of each compared request, which json-server and the profile both answer. */
const PAGE_2 = '/posts?_page=2&_limit=20';
const FILTERED = '/posts?views_gte=90000&_sort=views&_order=desc&_limit=20';
/** The same filtered page in the HAL API's terms; total=true because json-server's answer counts the matches too (X-Total-Count). */
const FILTERED_HAL = '/posts?views%5Bgte%5D=90000&sort=-views&limit=20&total=true';

type Post = { id: number; views: number };

/** `GET /posts/{n}` over every post id in turn (bench/wrk/get.lua), as the characters' read row does. */
function readPosts(): RequestPlan {
  let n = 0;
  return {
    method: 'GET',
    path: () => `/posts/${(n++ % POSTS) + 1}`,
    wrk: () => ({ script: 'get.lua', args: ['/posts/{n}', String(POSTS), '0'] }),
  };
}

/** The posts of a list answer: json-server's bare array, or the HAL API's `_embedded.posts`. */
function postsOf(body: string, hal: boolean): Post[] | string {
  try {
    const parsed = JSON.parse(body);
    const items = hal ? parsed?._embedded?.posts : parsed;
    if (!Array.isArray(items)) return `the first response is not a list of posts: ${body.slice(0, 120)}`;
    return items as Post[];
  } catch {
    return `the first response is not JSON: ${body.slice(0, 120)}`;
  }
}

/** Checks the first answer is page 2 in id order (posts 21..40), so a server ignoring `_page` is caught. */
const pageCheck = (hal: boolean) => (body: string) => {
  const posts = postsOf(body, hal);
  if (typeof posts === 'string') return posts;
  const ids = posts.map((p) => p.id).join(',');
  return ids === Array.from({ length: 20 }, (_, i) => 21 + i).join(',') ? undefined : `page 2 should hold posts 21..40, not ${ids.slice(0, 80)}`;
};

/** Checks the first answer is 20 posts with views >= 90000, most viewed first. */
const filteredCheck = (hal: boolean) => (body: string) => {
  const posts = postsOf(body, hal);
  if (typeof posts === 'string') return posts;
  if (posts.length !== 20) return `the first page has ${posts.length} posts, not 20`;
  if (posts.some((p) => p.views < 90_000)) return 'the first page has posts with views under 90000';
  if (posts.some((p, i) => i > 0 && posts[i - 1].views < p.views)) return 'the first page is not sorted by views, descending';
  return undefined;
};

/** Checks the read answered post 1 itself: the bare object for json-server's spelling, with `_links` for the HAL API's. */
const readCheck = (hal: boolean) => (body: string) => {
  try {
    const post = JSON.parse(body) as Post & { _links?: unknown };
    if (post.id !== 1) return `the first response is not post 1: ${body.slice(0, 120)}`;
    return (post._links !== undefined) === hal ? undefined : `the first response is ${hal ? 'not a HAL record' : 'a HAL record, not the bare object'}: ${body.slice(0, 120)}`;
  } catch {
    return `the first response is not JSON: ${body.slice(0, 120)}`;
  }
};

/**
 * `restwell import` of the db.json (as `serve db.json` does on its first start), and two configs on that
 * database: the imported one with every resource public, rate limit off, and `compat` set to
 * `json-server` for one and `hal` for the other.
 */
async function importedConfigs(ctx: BenchContext, file: string): Promise<{ db: string; jsonServer: string; hal: string }> {
  const db = join(ctx.work, 'profile.db');
  const imported = join(ctx.work, 'profile.imported.json');
  const res = await restwellCli(['import', file, '--db', db, '--config', imported, '--force']);
  if (res.code !== 0) throw new Error(`restwell import failed:\n${res.stderr}`);
  const config = JSON.parse(readFileSync(imported, 'utf8')) as { resources: Record<string, Record<string, unknown>> } & Record<string, unknown>;
  for (const resource of Object.values(config.resources)) resource.access = { read: 'public', write: 'public' };
  const write = (compat: string) => {
    const path = join(ctx.work, `profile.${compat}.json`);
    writeFileSync(path, JSON.stringify({ ...config, compat, auth: { rateLimit: false } }, null, 2));
    return path;
  };
  return { db, jsonServer: write('json-server'), hal: write('hal') };
}

/** The HAL API's page 2 of 20: the `next` link of its first page (it pages by cursor, not by number). */
async function halPage2(url: string): Promise<string> {
  const res = await fetch(`${url}/posts?limit=20`);
  const body = (await res.json()) as { _links?: { next?: { href?: string } } };
  const href = body._links?.next?.href;
  if (!res.ok || !href) throw new Error(`GET /posts?limit=20 gave ${res.status} and no next link`);
  const next = new URL(href, url);
  return next.pathname + next.search;
}

/**
 * The json-server profile against json-server 0.17.4 and against Restwell's HAL API on the same data
 * (a db.json of 3,000 posts from src/test-support/json-server-db.ts): page 2 of 20, a filtered page
 * sorted by views, and a read by id. Until the profile is built, its rows say so instead of measuring.
 */
export async function jsonServerProfileRows(ctx: BenchContext): Promise<Row[]> {
  const file = join(ctx.work, 'profile', 'db.json');
  mkdirSync(join(ctx.work, 'profile'), { recursive: true });
  writeFileSync(file, JSON.stringify(jsonServerDb(ROWS), null, 2));
  const rows: Row[] = [];
  /** Measures one row of `server`; `how` (the HAL API's spelling of the request) goes first in its note. */
  const row =
    (server: string, url: string, pid: number | undefined, skipIfPreflightFails = false) =>
    async (group: { id: string; label: string }, plan: RequestPlan, check: RowSpec['check'], how?: string) => {
      const measured = await runRow(ctx, { group: group.id, scenario: group.label, server, ceiling: 'get', url, pid, plan, check, skipIfPreflightFails });
      rows.push({ ...measured, note: [how, measured.note].filter(Boolean).join('; ') || undefined });
    };

  await withServer(startJsonServer(file, '/posts/1'), async (js) => {
    const measure = row(SERVERS.jsonServer, js.url, js.child.pid);
    await measure(GROUPS.profilePage, getPath(PAGE_2), pageCheck(false));
    await measure(GROUPS.profileFiltered, getPath(FILTERED), filteredCheck(false));
    await measure(GROUPS.profileRead, readPosts(), readCheck(false));
  });

  let configs: Awaited<ReturnType<typeof importedConfigs>>;
  try {
    configs = await importedConfigs(ctx, file);
  } catch (err) {
    for (const g of [GROUPS.profilePage, GROUPS.profileFiltered, GROUPS.profileRead]) {
      rows.push(notRun(g.id, g.label, SERVERS.restwellJsonServer, `n/a (${reason(err)})`, 'get'), notRun(g.id, g.label, SERVERS.restwell, `n/a (${reason(err)})`, 'get'));
    }
    return rows;
  }

  await withServer(startRestwell({ db: configs.db, config: configs.jsonServer, name: SERVERS.restwellJsonServer }), async (rw) => {
    // Rows whose first answer is not json-server's (the profile not built yet) say so instead of measuring.
    const measure = row(SERVERS.restwellJsonServer, rw.url, rw.child.pid, true);
    await measure(GROUPS.profilePage, getPath(PAGE_2), pageCheck(false));
    await measure(GROUPS.profileFiltered, getPath(FILTERED), filteredCheck(false));
    await measure(GROUPS.profileRead, readPosts(), readCheck(false));
  });

  await withServer(startRestwell({ db: configs.db, config: configs.hal, name: SERVERS.restwell }), async (rw) => {
    const measure = row(SERVERS.restwell, rw.url, rw.child.pid);
    const page2 = await halPage2(rw.url);
    await measure(GROUPS.profilePage, getPath(page2), pageCheck(true), 'HAL API: GET /posts?limit=20&cursor=… (the same page, by its next link)');
    await measure(GROUPS.profileFiltered, getPath(FILTERED_HAL), filteredCheck(true), `HAL API: GET ${decodeURIComponent(FILTERED_HAL)}`);
    await measure(GROUPS.profileRead, readPosts(), readCheck(true), 'HAL API: the record with its _links');
  });
  return rows;
}
