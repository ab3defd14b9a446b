import { uniqueCharacterBody } from './data.js';
import type { RequestPlan } from './load.js';
import { headerArgs } from './wrk.js';

/**
 * `GET /characters/{id}` over ids 1..count in turn, so every request reads a different record
 * (bench/wrk/get.lua formats the `count` requests once and cycles through them). `limit` > 0 makes
 * each wrk thread stop after that many requests (the memory row).
 */
export function getById(count: number, headers?: Record<string, string>, limit = 0): RequestPlan {
  let n = 0;
  return {
    method: 'GET',
    path: () => `/characters/${(n++ % count) + 1}`,
    headers,
    wrk: () => ({ script: 'get.lua', args: ['/characters/{n}', String(count), String(limit), ...headerArgs(headers)] }),
  };
}

/** GET of one fixed path (bench/wrk/get.lua with a count of 1). */
export function getPath(path: string, headers?: Record<string, string>): RequestPlan {
  return { method: 'GET', path, headers, wrk: () => ({ script: 'get.lua', args: [path, '1', '0', ...headerArgs(headers)] }) };
}

/** A page of 20 sorted by name. json-server spells the same request with `_limit` and `_sort`. */
export function sortedPage(dialect: 'restwell' | 'json-server'): RequestPlan {
  return getPath(dialect === 'restwell' ? '/characters?limit=20&sort=name' : '/characters?_limit=20&_sort=name');
}

/** The filtered, sorted page of the 1M-row target (brackets percent-encoded, as a client sends them). */
export const FILTERED_PAGE_PATH = '/characters?limit=20&sort=name&name%5BstartsWith%5D=C';

/**
 * The same page as FILTERED_PAGE_PATH, its URL made new for every request by a filter that only leaves
 * out one number (`number[ne]=n`, n = 1..100,000 in turn): Restwell keeps recent pages until the next
 * commit, so the fixed URL is served from that cache after its first request; this one runs the SQL
 * (the same walk of the name index from 'C', one more comparison per row) every time.
 */
export function uncachedFilteredPage(): RequestPlan {
  const path = `${FILTERED_PAGE_PATH}&number%5Bne%5D={n}`;
  const count = 100_000;
  let n = 0;
  return {
    method: 'GET',
    path: () => path.replace('{n}', String((n++ % count) + 1)),
    wrk: () => ({ script: 'get.lua', args: [path, String(count), '0'] }),
  };
}

/**
 * `POST /characters` with a name that never repeats (a repeat would be a 409 on Restwell): the preflight's
 * from `uniqueCharacterBody` ("bench <pid> <n>"), wrk's from bench/wrk/post.lua ("bench <run tag>-<thread>-<n>",
 * the tag new for every wrk run), so the two never meet either.
 */
export function createCharacter(headers?: Record<string, string>): RequestPlan {
  return {
    method: 'POST',
    path: '/characters',
    body: uniqueCharacterBody,
    headers,
    wrk: (run) => ({ script: 'post.lua', args: ['/characters', run.tag, ...headerArgs(headers)] }),
  };
}

let changes = 0;

/**
 * A PUT or PATCH of existing records: ids 1..count in turn, every body new (a `{tag}` in `body` becomes
 * a value never sent before: bench/wrk/mutate.lua), so each request changes its record and answers
 * 200; the preflight's bodies use "pre <pid> <n>" instead, which wrk's never meet.
 */
export function changeCharacters(method: 'PUT' | 'PATCH', count: number, body: string): RequestPlan {
  const contentType = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
  let n = 0;
  return {
    method,
    path: () => `/characters/${(n++ % count) + 1}`,
    headers: { 'content-type': contentType },
    body: () => body.replace('{tag}', `pre ${process.pid} ${++changes}`),
    wrk: (run) => ({ script: 'mutate.lua', args: [method, '/characters/{n}', '1', String(count), '0', run.tag, contentType, body, String(run.threads)] }),
  };
}

/**
 * DELETE of records `first`, `first + 1`, … each once (a second DELETE of an id is a 404): the
 * preflight deletes `first`, then every wrk run gets the next `perRun(seconds)` ids of its own, shared
 * out between its threads.
 * When a run needs more than it was given, the script stops and the row says it ran out.
 */
export function deleteCharacters(first: number, perRun: (seconds: number) => number): RequestPlan {
  let next = first + 1;
  return {
    method: 'DELETE',
    path: `/characters/${first}`,
    wrk: (run) => {
      const count = perRun(run.seconds);
      const args = ['DELETE', '/characters/{n}', String(next), String(count), '1', run.tag, '-', '-', String(run.threads)];
      next += count;
      return { script: 'mutate.lua', args };
    },
  };
}

/**
 * Sends one request of a plan before it is measured, so a row that would only collect errors says
 * why (e.g. "404 on /characters/1") instead of just counting them.
 */
export async function preflight(url: string, plan: RequestPlan): Promise<{ ok: boolean; status: number; body: string }> {
  const headers = typeof plan.headers === 'function' ? plan.headers() : { ...plan.headers };
  if (plan.body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const path = typeof plan.path === 'function' ? plan.path() : plan.path;
  try {
    const res = await fetch(url + path, { method: plan.method, headers, body: plan.body?.(), signal: AbortSignal.timeout(10_000) });
    const body = await res.text();
    return { ok: res.ok, status: res.status, body };
  } catch (err) {
    return { ok: false, status: 0, body: String(err) };
  }
}

/**
 * Checks that a list response is a page of 20 names sorted ascending (and all starting with `prefix`),
 * so a server that ignores a parameter is caught instead of being measured doing less work.
 */
export function pageCheck(dialect: 'restwell' | 'json-server', prefix?: string) {
  return (body: string): string | undefined => {
    let names: string[];
    try {
      const parsed = JSON.parse(body);
      const items = dialect === 'restwell' ? parsed?._embedded?.characters : parsed;
      names = (items as Array<{ name: string }>).map((c) => c.name);
    } catch {
      return `the first response is not the expected list: ${body.slice(0, 120)}`;
    }
    if (names.length !== 20) return `the first page has ${names.length} records, not 20`;
    if (names.some((n, i) => i > 0 && names[i - 1] > n)) return 'the first page is not sorted by name';
    if (prefix && names.some((n) => !n.startsWith(prefix))) return `the first page has names not starting with ${prefix}`;
    return undefined;
  };
}
