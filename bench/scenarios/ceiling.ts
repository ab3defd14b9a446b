import { runRow, type BenchContext } from '../context.js';
import { GROUPS, SERVERS } from '../groups.js';
import type { Row } from '../load.js';
import { createCharacter, getById } from '../requests.js';
import { startRawHttp, withServer } from '../servers.js';

/** Raw node:http with a fixed body, under the GET-by-id and the POST load: the ceilings of every ratio. */
export async function ceilingRows(ctx: BenchContext): Promise<Row[]> {
  return withServer(startRawHttp(), async (raw) => [
    await runRow(ctx, { group: GROUPS.getById.id, scenario: GROUPS.getById.label, server: SERVERS.raw, ceiling: 'get', url: raw.url, plan: getById(ctx.settings.sizes.small) }),
    await runRow(ctx, { group: GROUPS.post1k.id, scenario: GROUPS.post1k.label, server: SERVERS.raw, ceiling: 'post', url: raw.url, plan: createCharacter() }),
  ]);
}
