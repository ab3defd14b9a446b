import { header } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import type { SchemaContext } from '../../http/openapi/schemas.js';

const status = { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } };
const noStore = { 'Cache-Control': { description: 'Always `no-store`: a probe must reach this server', schema: { type: 'string', const: 'no-store' } } };

/** The operations routes (probes and metrics), by operationId, under the `operations` tag. */
export const OPS_OPERATIONS: Record<string, (ctx: SchemaContext) => OperationDoc> = {
  getHealth: () => ({
    tag: 'operations',
    description: 'Liveness probe: 200 whenever the process can answer HTTP at all. It never touches the database, so a database outage does not get the process restarted.',
    responses: { '200': { description: 'The process is up', headers: noStore, content: { 'application/json': { schema: status } } } },
    problems: [],
  }),
  getReadiness: (ctx) => ({
    tag: 'operations',
    description: 'Readiness probe: 200 when the database answers a trivial query within 2 s; 503 when it does not, or while the server drains its requests at shutdown. Route traffic only to instances that answer 200.',
    responses: { '200': { description: 'Ready to serve', headers: noStore, content: { 'application/json': { schema: status } } } },
    problems: ['unavailable', 'shutting-down'],
    problemHeaders: { 503: { 'Retry-After': header(ctx, 'retry-after') } },
  }),
  getMetrics: () => ({
    tag: 'operations',
    description:
      'Prometheus metrics of this process in the text exposition format 0.0.4: requests by method, route pattern and status, a latency histogram, inbound webhook deliveries by source and outcome, outbound delivery attempts by outcome, the SQLite group-commit batch size, and process metrics (CPU, memory, event loop, GC). Needs a token with `metrics:read` unless `server.metrics` is `public`. With `serve --workers N` each worker answers with its own numbers.',
    responses: { '200': { description: 'The metrics', headers: noStore, content: { 'text/plain': { schema: { type: 'string', description: 'Prometheus text format 0.0.4' } } } } },
    problems: [],
  }),
};
