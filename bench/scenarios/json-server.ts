import { join } from 'node:path';
import { notRun, runRow } from '../context.js';
import type { BenchContext } from '../settings.js';
import { writeJsonServerDb } from '../data.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { createCharacter, getById, pageCheck, sortedPage } from '../requests.js';
import { startJsonServer, withServer } from '../servers.js';

/**
 * json-server 0.17.4 on the same characters: reads and POST at 1k rows, POST at 100k rows (kept short:
 * it rewrites its whole db.json per write), and the 1M rows it cannot serve meaningfully, said so.
 */
export async function jsonServerRows(ctx: BenchContext): Promise<Row[]> {
  const { small, medium } = ctx.settings.sizes;
  const server = SERVERS.jsonServer;
  const rows: Row[] = [];
  await withServer(startJsonServer(writeJsonServerDb(join(ctx.work, 'json-server-1k', 'db.json'), small)), async (js) => {
    rows.push(await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server, ceiling: 'get', url: js.url, pid: js.child.pid, plan: getById(small) }));
    rows.push(await runRow(ctx, { group: GROUPS.list.id, scenario: GROUPS.list.label, server, ceiling: 'get', url: js.url, pid: js.child.pid, plan: sortedPage('json-server'), check: pageCheck('json-server') }));
    rows.push(await runRow(ctx, { group: GROUPS.post1k.id, scenario: GROUPS.post1k.label, server, ceiling: 'post', url: js.url, pid: js.child.pid, plan: createCharacter() }));
  });
  await withServer(startJsonServer(writeJsonServerDb(join(ctx.work, 'json-server-100k', 'db.json'), medium)), async (js) => {
    // No warm-up: at ~0.1 s per write its 32 queued requests would still be running when the measured
    // window opens; JIT warmth is irrelevant next to rewriting 10 MB per request.
    const timing = { warmup: 0, duration: ctx.settings.slowDuration };
    const row = await runRow(ctx, { group: GROUPS.post100k.id, scenario: GROUPS.post100k.label, server, ceiling: 'post', url: js.url, pid: js.child.pid, plan: createCharacter(), timing });
    rows.push({ ...row, note: row.note ?? `short run (${timing.duration} s, no warm-up): every write rewrites the ~10 MB db.json` });
  });
  rows.push(notRun(GROUPS.post1m.id, GROUPS.post1m.label, server, 'not run: json-server rewrites its whole db.json (~100 MB at 1M rows) on every write', 'post'));
  rows.push(
    notRun(GROUPS.filtered1m.id, GROUPS.filtered1m.label, server, 'n/a: json-server has no startsWith filter and no index; it would regex-scan and sort all 1M rows in memory per request', 'get'),
  );
  return rows;
}
