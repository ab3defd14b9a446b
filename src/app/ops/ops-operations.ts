import { header } from '../../http/openapi/headers.js';
import type { OperationDoc } from '../../http/openapi/operation-doc.js';
import type { SchemaContext } from '../../http/openapi/schemas.js';

const status = { type: 'object', required: ['status'], properties: { status: { const: 'ok' } } };
const series = { type: 'array', items: { type: ['number', 'null'] }, description: 'One value per entry of `time` (null: nothing measured then)' };
const seriesMap = (description: string) => ({ type: 'object', description, additionalProperties: series });
const keySeries = (what: string) => ({
  type: 'object',
  description: `Per ${what}, with activity in the samples kept: outcomes per sample, the share that succeeded (0..1), latency quantiles in ms`,
  additionalProperties: { type: 'object', required: ['count', 'successRate', 'p50Ms', 'p99Ms'], properties: { count: series, successRate: series, p50Ms: series, p99Ms: series } },
});
const historySchema = {
  type: 'object',
  required: ['node', 'intervalSeconds', 'keepSeconds', 'time', 'requests', 'errors', 'writes', 'inbound', 'outbound', 'streams', 'eventRows', 'eventGrowth', 'databaseBytes', 'sources', 'endpoints'],
  properties: {
    node: {
      type: 'object',
      description: 'The node that answered: each node keeps its own history',
      required: ['id', 'hostname', 'pid', 'startedAt'],
      properties: { id: { type: 'string' }, hostname: { type: 'string' }, pid: { type: 'integer' }, startedAt: { type: 'string', format: 'date-time' } },
    },
    intervalSeconds: { type: 'number', description: 'Seconds between samples (server.metricsHistory.interval)' },
    keepSeconds: { type: 'number', description: 'Seconds of samples kept (server.metricsHistory.keep)' },
    time: { type: 'array', items: { type: 'number' }, description: 'The end of each sample\'s interval, seconds since the epoch (with milliseconds), oldest first' },
    requests: { type: 'object', description: 'Per route group (records, inbound, outbound, events, auth, console, ops, unmatched, other): requests per second and latency quantiles in ms', additionalProperties: { type: 'object', properties: { rate: series, p50Ms: series, p99Ms: series } } },
    errors: { type: 'object', description: 'Responses per second with a 4xx and a 5xx status', properties: { '4xx': series, '5xx': series } },
    writes: seriesMap('Successful writes (POST, PUT, PATCH, DELETE) per second, per resource'),
    inbound: seriesMap('Inbound webhook deliveries per second, per outcome (accepted, unverified, rejected, rate_limited, refused, error)'),
    outbound: { type: 'object', description: 'Outbound webhook attempts per second: delivered, failed and to be retried, given up on (failed); latency quantiles of all attempts in ms', properties: { delivered: series, retrying: series, failed: series, p50Ms: series, p99Ms: series } },
    streams: { ...series, description: 'Event streams (SSE clients) open at each sample' },
    eventRows: { ...series, description: 'Events in the log (the store\'s estimate, measured at most every 10 s)' },
    eventGrowth: { ...series, description: 'Events appended per second' },
    databaseBytes: { ...series, description: 'Bytes the database takes' },
    sources: keySeries('inbound webhook source'),
    endpoints: keySeries('outbound webhook endpoint id'),
  },
};

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
  getMetricsHistory: () => ({
    tag: 'operations',
    description:
      'A short history of this node\'s own metrics, sampled from the counters behind `/metrics` (one sample every 10 s, the last hour kept, in memory: `server.metricsHistory`), as columns ready to chart: the console\'s dashboard and its webhook sparklines read it. ' +
      'Several nodes behind a load balancer each answer with their own history (`node` says which one answered), and it starts empty when the process starts: for the whole cluster, and for longer, scrape `/metrics` with Prometheus. ' +
      'Needs a token with `metrics:read` unless `server.metrics` is `public`; absent when it is `off`.',
    parameters: [
      { name: 'since', in: 'query', description: 'Only samples after this time (seconds since the epoch): the last `time` you have', schema: { type: 'number', minimum: 0 } },
      { name: 'endpoint', in: 'query', description: 'Only this outbound endpoint\'s series under `endpoints` (and none under `sources`)', schema: { type: 'string', minLength: 1 } },
      { name: 'source', in: 'query', description: 'Only this inbound source\'s series under `sources` (and none under `endpoints`)', schema: { type: 'string', minLength: 1 } },
    ],
    responses: { '200': { description: 'The samples kept, oldest first', headers: noStore, content: { 'application/json': { schema: historySchema } } } },
    problems: ['invalid-query'],
  }),
};
