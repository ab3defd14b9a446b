import { runRow, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { createCharacter, FILTERED_PAGE_PATH, getById, getPath, pageCheck, sortedPage, uncachedFilteredPage } from '../requests.js';
import { startRestwell, withServer } from '../servers.js';
import { withLogCost } from '../log-cost.js';

/**
 * Restwell on SQLite: reads and POST at 1k rows, POST at 100k, and at 1M the filtered sorted page
 * (measured first, on exactly 1M rows: a new URL each request, then the fixed URL) and POST. Each
 * size is its own freshly seeded database. At 1k rows, GET by id and POST are measured again with
 * logging off (LOG_LEVEL=warn), beside the rows at default settings: what the request log costs (for
 * GET, also measured directly, the two servers alternating: withLogCost).
 */
export async function restwellRows(ctx: BenchContext): Promise<Row[]> {
  const { small, medium, large } = ctx.settings.sizes;
  const server = SERVERS.restwell;
  const rows: Row[] = [];

  const db1k = await seededDatabase(ctx, 'restwell-1k', small);
  const restart1k = (nodeArgs: string[]) => startRestwell({ ...db1k, nodeArgs });
  const quiet = SERVERS.restwellQuiet;
  await withServer(startRestwell(db1k), async (rw) => {
    rows.push(await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan: getById(small), restart: restart1k }));
    // Its "logging off" twin, up beside it: its own row, then the two servers alternating (the log's cost, withLogCost).
    await withServer(startRestwell({ ...db1k, name: quiet, quietLogs: true }), async (off) => {
      const row = await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server: quiet, ceiling: 'get', url: off.url, pid: off.child.pid, plan: getById(small), pair: true });
      rows.push(await withLogCost(ctx.settings, row, rw, off, getById(small)));
    });
    rows.push(await runRow(ctx, { group: GROUPS.list.id, scenario: GROUPS.list.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan: sortedPage('restwell'), check: pageCheck('restwell') }));
    rows.push(await runRow(ctx, { group: GROUPS.post1k.id, scenario: GROUPS.post1k.label, server, ceiling: 'post', url: rw.url, pid: rw.child.pid, plan: createCharacter(), restart: restart1k }));
  });
  await withServer(startRestwell({ ...db1k, name: quiet, quietLogs: true }), async (rw) => {
    rows.push(await runRow(ctx, { group: GROUPS.post1k.id, scenario: GROUPS.post1k.label, server: quiet, ceiling: 'post', url: rw.url, pid: rw.child.pid, plan: createCharacter(), pair: true }));
  });

  const db100k = await seededDatabase(ctx, 'restwell-100k', medium);
  await withServer(startRestwell(db100k), async (rw) => {
    rows.push(await runRow(ctx, { group: GROUPS.post100k.id, scenario: GROUPS.post100k.label, server, ceiling: 'post', url: rw.url, pid: rw.child.pid, plan: createCharacter(), pair: true }));
  });

  const db1m = await seededDatabase(ctx, 'restwell-1m', large);
  await withServer(startRestwell(db1m), async (rw) => {
    rows.push(
      await runRow(ctx, {
        ...{ group: GROUPS.filtered1mUncached.id, scenario: GROUPS.filtered1mUncached.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid },
        ...{ plan: uncachedFilteredPage(), check: pageCheck('restwell', 'C'), restart: (nodeArgs) => startRestwell({ ...db1m, nodeArgs }) },
      }),
      await runRow(ctx, { group: GROUPS.filtered1m.id, scenario: GROUPS.filtered1m.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan: getPath(FILTERED_PAGE_PATH), check: pageCheck('restwell', 'C') }),
    );
    rows.push(await runRow(ctx, { group: GROUPS.post1m.id, scenario: GROUPS.post1m.label, server, ceiling: 'post', url: rw.url, pid: rw.child.pid, plan: createCharacter(), pair: true }));
  });
  return rows;
}
