// The dashboard (`#/` once signed in): live charts of the node that answers, drawn from its own
// metrics history (GET /metrics/history, which needs what /metrics needs). It polls every few
// seconds while shown and stops when the view is left. A token that may not read the metrics
// (401, 403) or a server with metrics off (404) gets the collections home instead.
import { api, token } from '../api.js';
import { formatValue, lineChart } from '../charts.js';
import { h, problemBox } from '../widgets.js';
import { homeView } from './collections.js';

/** How often the page asks whether a new sample was taken. */
const POLL_MS = 5000;

/** The charts, in reading order: what each draws from the history document. */
const CHARTS = [
  { key: 'requests', title: 'Requests per second, by route group', unit: '/s', lines: (d) => keyed(d.requests, (s) => s.rate) },
  { key: 'latency-p50', title: 'Latency p50 (ms), by route group', unit: 'ms', lines: (d) => keyed(d.requests, (s) => s.p50Ms) },
  { key: 'latency-p99', title: 'Latency p99 (ms), by route group', unit: 'ms', lines: (d) => keyed(d.requests, (s) => s.p99Ms) },
  { key: 'errors', title: 'Error responses per second', unit: '/s', lines: (d) => [{ label: '4xx', values: d.errors['4xx'] }, { label: '5xx', values: d.errors['5xx'] }] },
  { key: 'writes', title: 'Writes per second, by resource', unit: '/s', lines: (d) => keyed(d.writes) },
  { key: 'inbound', title: 'Inbound webhook deliveries per second, by outcome', unit: '/s', lines: (d) => keyed(d.inbound) },
  {
    key: 'outbound',
    title: 'Outbound webhook deliveries per second',
    unit: '/s',
    lines: (d) => [
      { label: 'delivered', values: d.outbound.delivered },
      { label: 'retrying', values: d.outbound.retrying },
      { label: 'failed (given up)', values: d.outbound.failed },
    ],
  },
  { key: 'outbound-latency', title: 'Outbound webhook latency (ms)', unit: 'ms', lines: (d) => [{ label: 'p50', values: d.outbound.p50Ms }, { label: 'p99', values: d.outbound.p99Ms }] },
  { key: 'streams', title: 'Event stream (SSE) clients', unit: '', lines: (d) => [{ label: 'open streams', values: d.streams }] },
  { key: 'event-log', title: 'Event log: events kept', unit: '', lines: (d) => [{ label: 'events', values: d.eventRows }] },
  { key: 'event-growth', title: 'Event log growth (events per second)', unit: '/s', lines: (d) => [{ label: 'appended', values: d.eventGrowth }] },
  { key: 'database', title: 'Database size', unit: 'bytes', lines: (d) => [{ label: 'database', values: d.databaseBytes }] },
];

/** One line per key of a record of series (or of objects holding one, picked by `pick`). */
function keyed(record, pick = (s) => s) {
  return Object.entries(record).map(([label, s]) => ({ label, values: pick(s) }));
}

/** `#/`: the dashboard when this tab may read the metrics, else the collections home. */
export async function dashboardView(main, params, query) {
  if (!token()) return homeView(main, params, query);
  let doc;
  try {
    doc = (await api('GET', '/metrics/history')).body;
  } catch (err) {
    if (err.status === 401 || err.status === 403 || err.status === 404) return homeView(main, params, query);
    main.replaceChildren(h('h1', {}, 'Dashboard'), problemBox(err));
    return undefined;
  }
  const node = h('p', { class: 'hint node', id: 'dashboard-node' });
  const updated = h('p', { class: 'hint', id: 'dashboard-updated', role: 'status' });
  const charts = CHARTS.map((c) => ({ ...c, chart: lineChart(c) }));
  main.replaceChildren(
    h('h1', {}, 'Dashboard'),
    node,
    h('p', { class: 'hint' }, 'Each node keeps its own short history in memory; behind a load balancer, each refresh may show another node. For the whole cluster and for longer, scrape ', h('code', {}, '/metrics'), ' with Prometheus.'),
    updated,
    h('div', { class: 'charts' }, charts.map((c) => c.chart.el)),
  );
  const draw = (d) => {
    node.textContent = `Node ${d.node.id} (host ${d.node.hostname}, up since ${new Date(d.node.startedAt).toLocaleString()}): a sample every ${d.intervalSeconds} s, the last ${Math.round(d.keepSeconds / 60)} minutes kept.`;
    main.dataset.node = d.node.id;
    const last = d.time[d.time.length - 1];
    updated.textContent = last
      ? `${d.time.length} sample${d.time.length === 1 ? '' : 's'}, the latest at ${new Date(last * 1000).toLocaleTimeString()} (${formatValue(d.databaseBytes[d.databaseBytes.length - 1], 'bytes')} of data).`
      : `No sample yet: the first is taken within ${d.intervalSeconds} s.`;
    for (const c of charts) c.chart.set(d.time, c.lines(d));
    main.dataset.samples = String(d.time.length);
  };
  draw(doc);

  let stopped = false;
  let timer;
  const poll = async () => {
    if (stopped) return;
    try {
      if (!document.hidden) {
        const last = doc.time[doc.time.length - 1];
        // A cheap question first (only samples after the last one shown); the whole hour only when there is one.
        const fresh = (await api('GET', `/metrics/history?since=${last ?? 0}`)).body;
        if (fresh.time.length || fresh.node.id !== doc.node.id) {
          doc = (await api('GET', '/metrics/history')).body;
          if (!stopped) draw(doc);
        }
      }
    } catch (err) {
      if (!stopped) updated.textContent = `Could not refresh: ${err.message}. Trying again in ${POLL_MS / 1000} s.`;
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };
  timer = setTimeout(poll, POLL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const c of charts) c.chart.destroy();
  };
}
