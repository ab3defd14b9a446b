import { notRun, reason, runRow, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { getById } from '../requests.js';
import { restwellSupports, startRestwell, withServer } from '../servers.js';

/** `restwell serve --workers 2` (issue 4) on SQLite, GET by id, when `serve` has the flag. */
export async function workersRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.workers;
  if (!(await restwellSupports(['serve'], '--workers'))) return [notRun(GROUPS.getById.id, GROUPS.getById.label, server, 'n/a (not built)', 'get')];
  const { small } = ctx.settings.sizes;
  const db = await seededDatabase(ctx, 'workers-1k', small);
  try {
    return await withServer(startRestwell({ ...db, args: ['--workers', '2'], name: server }), async (rw) => [
      await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server, ceiling: 'get', url: rw.url, plan: getById(small), skipIfPreflightFails: true }),
    ]);
  } catch (err) {
    return [notRun(GROUPS.getById.id, GROUPS.getById.label, server, `n/a (${reason(err)})`, 'get')];
  }
}
