// Sparklines on the webhook pages: an outbound endpoint's or an inbound source's success rate and
// latency over the last hour, from the answering node's metrics history (GET /metrics/history,
// which needs what /metrics needs: without it, nothing is shown). Each mount finds its place under
// the page's heading, refreshes while it is on the page and stops by itself once the page is left.
import { api } from '../api.js';
import { formatValue, lineChart } from '../charts.js';
import { h } from '../widgets.js';

const POLL_MS = 10_000;
const enc = encodeURIComponent;

/** Adds the health sparklines of outbound endpoint `id` to the page in `main`. */
export function mountEndpointHealth(main, id) {
  return mount(main, `endpoint=${enc(id)}`, (d) => d.endpoints[id], ['attempt', 'attempts'], `endpoint ${id}`);
}

/** Adds the health sparklines of inbound source `source` to the page in `main`. */
export function mountSourceHealth(main, source) {
  return mount(main, `source=${enc(source)}`, (d) => d.sources[source], ['delivery', 'deliveries'], `source ${source}`);
}

async function mount(main, filter, pick, [one, noun], what) {
  let doc;
  try {
    doc = (await api('GET', `/metrics/history?${filter}`)).body;
  } catch {
    // No right to the metrics (or metrics off): the page is complete without its sparklines.
    return;
  }
  const rate = lineChart({ key: 'success-rate', title: 'Success rate', unit: 'ratio', height: 40, sparkline: true, describe: (latest) => (latest === null ? `No ${noun} in the last hour on this node.` : `Success rate: ${formatValue(latest, 'ratio')} in the latest sample.`) });
  const latency = lineChart({ key: 'latency', title: 'Latency p50', unit: 'ms', height: 40, sparkline: true, describe: (latest, peak) => (latest === null ? 'No latency measured in the last hour.' : `Latency p50: ${formatValue(latest, 'ms')} latest, ${formatValue(peak, 'ms')} at most.`) });
  const total = h('p', { class: 'hint' });
  const section = h(
    'section',
    { class: 'webhook-health', 'aria-labelledby': 'webhook-health-title' },
    h('h2', { id: 'webhook-health-title' }, 'Last hour on this node'),
    h('div', { class: 'sparks' }, rate.el, latency.el),
    total,
  );
  const draw = (d) => {
    const s = pick(d) ?? { count: d.time.map(() => 0), successRate: d.time.map(() => null), p50Ms: d.time.map(() => null) };
    rate.set(d.time, [{ label: 'success rate', values: s.successRate }]);
    latency.set(d.time, [{ label: 'p50', values: s.p50Ms }]);
    const count = s.count.reduce((a, b) => a + (b ?? 0), 0);
    total.textContent = `${count} ${count === 1 ? one : noun} to ${what} in the last ${Math.round(d.keepSeconds / 60)} minutes on node ${d.node.id}.`;
    section.dataset.count = String(count);
  };
  // Under the heading (and its breadcrumbs), whatever the view put there.
  const anchor = main.querySelector('.crumbs') ?? main.querySelector('h1');
  if (!anchor) return;
  anchor.after(section);
  draw(doc);
  const poll = async () => {
    if (!section.isConnected) {
      rate.destroy();
      latency.destroy();
      return;
    }
    try {
      if (!document.hidden) draw((doc = (await api('GET', `/metrics/history?${filter}`)).body));
    } catch {
      // Keep what is shown; the next poll tries again.
    }
    setTimeout(poll, POLL_MS);
  };
  setTimeout(poll, POLL_MS);
}
