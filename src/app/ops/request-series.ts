/** A metric as prom-client's Registry reads it (`registerMetric`): what `Counter.get()` returns. */
interface MetricValues {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: Array<{ labels: Record<string, string | number>; value: number; metricName?: string }>;
  aggregator: 'sum';
}

/** The counts of one route pattern and method since start: per status, and per latency bucket (not cumulative). */
export interface RouteCounts {
  route: string;
  method: string;
  byStatus: Array<[status: number, count: number]>;
  buckets: number[];
}

/** One series of the request counter. */
interface CountSeries {
  labels: Record<string, string>;
  value: number;
}

/** One series of the latency histogram: per-bucket (not yet cumulative) counts, their sum and count. */
interface TimeSeries {
  labels: Record<string, string>;
  buckets: number[];
  sum: number;
  count: number;
}

/** What one route keeps per method: its latency series and a counter series per status. */
interface MethodSeries {
  time: TimeSeries;
  byStatus: Map<number, CountSeries>;
}

/**
 * The HTTP request counter and latency histogram, kept as plain numbers per series and turned
 * into prom-client's values only when scraped. prom-client's own `inc` and `observe` hash the
 * label values and validate them on every call (about a microsecond per request together);
 * here a request costs a property lookup, a Map lookup, two additions and a bucket search.
 * Registered in a prom-client Registry like any metric (`registry.registerMetric`).
 */
export class RequestSeries {
  private readonly routes: Array<Map<string, MethodSeries>> = [];
  readonly counter: { name: string; help: string; type: 'counter'; get: () => MetricValues; reset: () => void };
  readonly histogram: { name: string; help: string; type: 'histogram'; get: () => MetricValues; reset: () => void };

  constructor(
    names: { counter: string; histogram: string },
    help: { counter: string; histogram: string },
    private readonly bounds: number[],
  ) {
    this.counter = { name: names.counter, help: help.counter, type: 'counter', get: () => this.counterValues(names.counter, help.counter), reset: () => undefined };
    this.histogram = { name: names.histogram, help: help.histogram, type: 'histogram', get: () => this.histogramValues(names.histogram, help.histogram), reset: () => undefined };
  }

  /** The recorder of one route pattern: called once per response with the method, status and seconds taken. */
  route(route: string): (method: string, status: number, seconds: number) => void {
    const methods = new Map<string, MethodSeries>();
    this.routes.push(methods);
    const bounds = this.bounds;
    return (method, status, seconds) => {
      let series = methods.get(method);
      if (!series) {
        series = { time: { labels: { method, route }, buckets: new Array(bounds.length + 1).fill(0), sum: 0, count: 0 }, byStatus: new Map() };
        methods.set(method, series);
      }
      let count = series.byStatus.get(status);
      if (!count) series.byStatus.set(status, (count = { labels: { method, route, status: String(status) }, value: 0 }));
      count.value++;
      const time = series.time;
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      time.buckets[i]!++;
      time.sum += seconds;
      time.count++;
    };
  }

  /** A copy of every series' counts, per route pattern and method (read by the metrics history, never on a request). */
  snapshot(): RouteCounts[] {
    const out: RouteCounts[] = [];
    for (const methods of this.routes) {
      for (const [method, s] of methods) {
        out.push({ route: s.time.labels.route!, method, byStatus: [...s.byStatus].map(([status, c]) => [status, c.value] as [number, number]), buckets: [...s.time.buckets] });
      }
    }
    return out;
  }

  private counterValues(name: string, help: string): MetricValues {
    const values: MetricValues['values'] = [];
    for (const methods of this.routes) for (const s of methods.values()) for (const c of s.byStatus.values()) values.push({ labels: c.labels, value: c.value });
    return { name, help, type: 'counter', values, aggregator: 'sum' };
  }

  private histogramValues(name: string, help: string): MetricValues {
    const values: MetricValues['values'] = [];
    for (const methods of this.routes) {
      for (const { time } of methods.values()) {
        let cumulative = 0;
        for (let i = 0; i <= this.bounds.length; i++) {
          cumulative += time.buckets[i]!;
          values.push({ labels: { ...time.labels, le: i < this.bounds.length ? this.bounds[i]! : '+Inf' }, value: cumulative, metricName: `${name}_bucket` });
        }
        values.push({ labels: time.labels, value: time.sum, metricName: `${name}_sum` });
        values.push({ labels: time.labels, value: time.count, metricName: `${name}_count` });
      }
    }
    return { name, help, type: 'histogram', values, aggregator: 'sum' };
  }
}
