import { collectDefaultMetrics, Counter, Histogram, Registry, type Metric } from 'prom-client';
import { OutcomeTally } from './outcome-tally.js';
import { RequestSeries } from './request-series.js';

/** Seconds: from a cached read (well under a millisecond) to a slow webhook or a big page. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Writes per SQLite group commit: one alone when idle, hundreds under load. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** The label of requests no route matched: one series for every unknown URL, never the URL itself. */
export const UNMATCHED_ROUTE = 'unmatched';

/** How an inbound webhook delivery was answered, as a bounded label. */
export type InboundOutcome = 'accepted' | 'unverified' | 'rejected' | 'rate_limited' | 'refused' | 'error';
/** How an outbound webhook delivery attempt went, as a bounded label. */
export type OutboundOutcome = 'delivered' | 'http_error' | 'network_error' | 'blocked';

/**
 * The Prometheus metrics of one server, in a registry of its own (several servers in one process,
 * as in tests, never share or collide). Labels are bounded: a route is the route table's path
 * pattern, a status a number, a source a configured name. Process metrics (CPU, memory, event-loop
 * lag, GC) start with the first scrape, so servers that are never scraped do not pay for their monitors.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly requests: RequestSeries;
  /** Inbound deliveries per configured source: accepted or not, and how long the answer took (the dashboard's sparklines). */
  readonly sources = new OutcomeTally(LATENCY_BUCKETS);
  /** Outbound attempts per endpoint id: delivered or not, and the receiver's latency (the dashboard's sparklines). */
  readonly endpoints = new OutcomeTally(LATENCY_BUCKETS);
  readonly inbound: Counter<'source' | 'outcome'>;
  readonly outbound: Counter<'outcome'>;
  private readonly batches: Histogram<string>;
  private processMetrics = false;
  /** The latency buckets' upper bounds (seconds) of the request histogram and the tallies. */
  readonly latencyBounds: readonly number[] = LATENCY_BUCKETS;

  constructor() {
    const registers = [this.registry];
    this.requests = new RequestSeries(
      { counter: 'restwell_http_requests_total', histogram: 'restwell_http_request_duration_seconds' },
      { counter: 'HTTP requests answered, by method, route pattern and status', histogram: 'Time from a request\'s arrival to its response being sent, by method and route pattern' },
      LATENCY_BUCKETS,
    );
    this.registry.registerMetric(this.requests.counter as unknown as Metric);
    this.registry.registerMetric(this.requests.histogram as unknown as Metric);
    this.inbound = new Counter({ name: 'restwell_webhook_deliveries_received_total', help: 'Inbound webhook deliveries, by configured source and outcome (accepted includes redeliveries answered from the inbox)', labelNames: ['source', 'outcome'], registers });
    this.outbound = new Counter({ name: 'restwell_webhook_delivery_attempts_total', help: 'Outbound webhook delivery attempts made by this process, by outcome', labelNames: ['outcome'], registers });
    this.batches = new Histogram({ name: 'restwell_store_commit_batch_size', help: 'Writes committed together per group commit (SQLite; absent on engines that commit each write alone)', buckets: BATCH_BUCKETS, registers });
  }

  /** The recorder of one route (`route` is its pattern), called once per response; see RequestSeries. */
  route(route: string): (method: string, status: number, seconds: number) => void {
    return this.requests.route(route);
  }

  /** Counts an inbound delivery to a configured source, answered after `seconds`. */
  inboundDelivery(source: string, outcome: InboundOutcome, seconds: number): void {
    this.inbound.inc({ source, outcome });
    this.sources.count(source, outcome === 'accepted', seconds);
  }

  /** Counts an outbound delivery attempt to an endpoint (its id) that took `seconds`. */
  outboundAttempt(outcome: OutboundOutcome, endpoint: string, seconds: number): void {
    this.outbound.inc({ outcome });
    this.endpoints.count(endpoint, outcome === 'delivered', seconds);
  }

  /** Records the size of one committed batch of writes. */
  commitBatch(size: number): void {
    this.batches.observe(size);
  }

  /** The text exposition (format 0.0.4) of every metric; process metrics are switched on by the first call. */
  async scrape(): Promise<string> {
    if (!this.processMetrics) {
      this.processMetrics = true;
      collectDefaultMetrics({ register: this.registry });
    }
    return this.registry.metrics();
  }

  /** The Content-Type of `scrape()`'s text. */
  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The outcome label of an inbound delivery, from the status it was answered with (404, no such source, is not counted). */
export function inboundOutcome(status: number): InboundOutcome | undefined {
  if (status < 300) return 'accepted';
  if (status === 401) return 'unverified';
  if (status === 429) return 'rate_limited';
  if (status === 403 || status === 406 || status === 422) return 'rejected';
  if (status === 404) return undefined;
  return status >= 500 ? 'error' : 'refused';
}
