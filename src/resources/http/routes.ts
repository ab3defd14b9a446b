import type { ResourceDefinition } from '../../core/resource.js';
import type { Route } from '../../http/route.js';
import { createRecord } from './create.js';
import { deleteRecord } from './delete.js';
import { listRecords } from './list.js';
import { patchRecord } from './patch.js';
import { readRecord } from './read.js';
import { RECORD_OPERATIONS } from './record-operations.js';
import type { QueryDialect } from './query-dialect.js';
import { replaceRecord } from './replace.js';
import { singularRoutes } from './singular-routes.js';
import { withBulkCreate } from './batch-operations.js';

/**
 * The six rows of each resource: its collection (`/{name}`) and its records (`/{name}/{id}`); a
 * singular resource has its own four instead (singular-routes.ts), unless json-server's shapes serve it.
 * `dialect` also reads another API's list parameters where they mean exactly Restwell's.
 */
export function resourceRoutes(resources: Iterable<ResourceDefinition>, dialect?: QueryDialect): Route[] {
  const routes: Route[] = [];
  for (const r of resources) {
    if (r.singular) {
      if (r.compat !== 'json-server') routes.push(...singularRoutes(r, dialect));
      continue;
    }
    const collection = `/${r.name}`;
    const item = `/${r.name}/:id`;
    const name = r.name.charAt(0).toUpperCase() + r.name.slice(1);
    const rows: Array<Omit<Route, 'resource' | 'doc'>> = [
      { method: 'GET', path: collection, operationId: `list${name}`, summary: `List ${r.name}`, handler: (c) => listRecords(c, r, dialect), kind: 'list' },
      { method: 'POST', path: collection, operationId: `create${name}`, summary: `Create a ${r.name} record`, handler: (c) => createRecord(c, r), kind: 'create' },
      { method: 'GET', path: item, operationId: `get${name}`, summary: `Read a ${r.name} record`, handler: (c) => readRecord(c, r, dialect), kind: 'read' },
      { method: 'PUT', path: item, operationId: `put${name}`, summary: `Replace (or create at this id) a ${r.name} record`, handler: (c) => replaceRecord(c, r), kind: 'replace' },
      { method: 'PATCH', path: item, operationId: `patch${name}`, summary: `Update part of a ${r.name} record`, handler: (c) => patchRecord(c, r), kind: 'patch' },
      { method: 'DELETE', path: item, operationId: `delete${name}`, summary: `Delete a ${r.name} record`, handler: (c) => deleteRecord(c, r), kind: 'delete' },
    ];
    for (const row of rows) routes.push({ ...row, resource: r, doc: (ctx) => (row.kind === 'create' ? withBulkCreate(RECORD_OPERATIONS.create(r, ctx), r, ctx) : RECORD_OPERATIONS[row.kind](r, ctx)) });
  }
  return routes;
}
