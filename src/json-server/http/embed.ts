import type { FastifyRequest } from 'fastify';
import type { RecordId, StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import type { HttpContext } from '../../http/context.js';
import { parseExpand } from '../../resources/http/expand.js';
import { loadExpansions } from '../../resources/http/expand-load.js';
import { plainJsonOf, plainRecord } from './plain-shape.js';
import { LIST_CAP, type JsonServerList } from './list-request.js';

/** The most records one json-server response embeds in all (`_embed` embeds every referencing record). */
const MAX_EMBEDDED = 50_000;

/**
 * The records as json-server bodies with what `_expand` and `_embed` ask: `_expand=user` puts the
 * record `userId` names under `user` (left out when there is none, as json-server leaves it
 * undefined), `_embed=comments` every comment referencing the record under `comments`, by id.
 * The caller's read rights apply to what is embedded, as with Restwell's `expand`.
 */
export async function withEmbeds(ctx: HttpContext, request: FastifyRequest, resource: ResourceDefinition, records: readonly StoredRecord[], expand: JsonServerList['expand']): Promise<Record<string, unknown>[]> {
  const nodes = parseExpand(resource, [...new Set(expand.map((e) => e.name))], ctx.resources, request);
  const loaded = await loadExpansions(ctx.store, resource, records, nodes, ctx.config.server.recordLimit, { perValue: LIST_CAP, maxRecords: MAX_EMBEDDED });
  return records.map((record) => {
    const body = plainRecord(resource, record);
    for (const { key, name } of expand) {
      const node = nodes.find((n) => n.name === name)!;
      const found = loaded.get(node);
      if (node.kind === 'forward') {
        const id = record.data[node.field] as RecordId | null;
        const target = id === null || id === undefined ? undefined : found?.get(id)?.[0];
        if (target) loaded.charge(plainJsonOf(node.target, target));
        body[key] = target ? plainRecord(node.target, target) : undefined;
      } else {
        const related = (found?.get(record.id) ?? []).slice(0, LIST_CAP);
        for (const r of related) loaded.charge(plainJsonOf(node.target, r));
        body[key] = related.map((r) => plainRecord(node.target, r));
      }
    }
    return body;
  });
}
