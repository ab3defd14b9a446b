import { notRun, reason, runRow, seededDatabase } from '../context.js';
import type { BenchContext } from '../settings.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { getById } from '../requests.js';
import { restwellCli, restwellSupports, startRestwell, withServer } from '../servers.js';
import type { ServerProcess } from '../processes.js';
import { withLogCost } from '../log-cost.js';
import { anonymousRefused, PROTECTED_CHARACTERS } from './auth-common.js';

/** GET by id with `Authorization: Bearer rw_…` (issue 5), when `restwell keys create` exists. */
export async function apiKeyRows(ctx: BenchContext): Promise<Row[]> {
  const server = SERVERS.apiKey;
  const na = (why: string) => [notRun(GROUPS.getById.id, GROUPS.getById.label, server, why, 'get')];
  if (!(await restwellSupports(['keys', 'create']))) return na('n/a (not built)');
  const { small } = ctx.settings.sizes;
  const db = await seededDatabase(ctx, 'api-key-1k', small, { resource: PROTECTED_CHARACTERS });
  const created = await restwellCli(['keys', 'create', '--name', 'bench', '--scopes', '*', '--db', db.db]);
  // The longest rw_ token: a listing may also show the key's short hint (its first characters).
  const key = (created.stdout.match(/\brw_[A-Za-z0-9_-]+/g) ?? []).sort((a, b) => b.length - a.length)[0];
  if (created.code !== 0 || !key) return na(`n/a (keys create printed no rw_ key: ${(created.stderr || created.stdout).trim().slice(0, 160)})`);
  // Beside it, the same with logging off (LOG_LEVEL=warn): what the request log costs (also measured directly, withLogCost).
  const quiet = SERVERS.apiKeyQuiet;
  const quietRow = (plan: ReturnType<typeof getById>, on: ServerProcess) =>
    withServer(startRestwell({ ...db, name: quiet, quietLogs: true }), async (rw) =>
      withLogCost(ctx.settings, await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server: quiet, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan, skipIfPreflightFails: true, pair: true }), on, rw, plan),
    ).catch((err) => notRun(GROUPS.getById.id, GROUPS.getById.label, quiet, `n/a (${reason(err)})`, 'get'));
  try {
    return await withServer(startRestwell({ ...db, name: server }), async (rw) => {
      const refused = await anonymousRefused(rw.url);
      if (refused) return na(refused);
      const plan = getById(small, { authorization: `Bearer ${key}` });
      const restart = (nodeArgs: string[]) => startRestwell({ ...db, name: server, nodeArgs });
      return [await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server, ceiling: 'get', url: rw.url, pid: rw.child.pid, plan, skipIfPreflightFails: true, restart }), await quietRow(plan, rw)];
    });
  } catch (err) {
    return na(`n/a (${reason(err)})`);
  }
}
