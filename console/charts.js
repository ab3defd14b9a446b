// Time-series charts over uPlot (served from its installed package at /_/vendor/), in the console's
// colours: each colour is read from the palette's CSS variables (light-dark() resolved by the
// browser), and read again when the scheme changes, so a chart always matches the page. Every
// chart carries its text alternative: a table of each line's latest value and peak (or, for a
// sparkline, one sentence), which is also what tests read.
import uPlot from './vendor/uPlot.esm.js';
import { h } from './widgets.js';

/** Line colours in order, as palette variables; past the sixth, lines repeat them dashed. */
const PALETTE = ['--accent', '--ok', '--warn', '--danger', '--fg', '--muted'];
const DASHES = [undefined, [6, 4], [2, 3]];
/** The least top of a chart's scale, by unit. */
const MIN_TOP = { '': 1, bytes: 1000, '/s': 0.1, ms: 1 };

/** The computed colour of a palette variable (`light-dark()` and all), via a probe element. */
function color(variable) {
  const probe = document.createElement('span');
  probe.style.color = `var(${variable})`;
  probe.style.display = 'none';
  document.body.append(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

/** Formats a value with its unit, briefly: `12.5/s`, `3.2 ms`, `1.4 MB`, `97%`. */
export function formatValue(value, unit) {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  if (unit === 'bytes') {
    const units = ['B', 'kB', 'MB', 'GB', 'TB'];
    let v = value;
    let i = 0;
    while (v >= 1000 && i < units.length - 1) {
      v /= 1000;
      i++;
    }
    return `${round(v)} ${units[i]}`;
  }
  if (unit === 'ratio') return `${round(value * 100)}%`;
  if (unit === '/s') return `${round(value)}/s`;
  if (unit === 'ms') return `${round(value)} ms`;
  return String(round(value));
}

function round(v) {
  const abs = Math.abs(v);
  return abs >= 100 ? Math.round(v) : abs >= 10 ? Math.round(v * 10) / 10 : Math.round(v * 100) / 100;
}

const live = new Set();
let watching = false;

/** Re-colours every chart on the page when the scheme changes (the header's toggle, or the system's). */
function watchScheme() {
  if (watching) return;
  watching = true;
  const redraw = () => {
    for (const c of live) c.redraw();
  };
  new MutationObserver(redraw).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw);
}

/**
 * A line chart: `set(time, lines)` draws `lines` (`[{ label, values }]`, one value per entry of
 * `time`, seconds since the epoch; null for a gap) and updates the summary table. `sparkline`
 * draws a small chart without axes and a one-sentence summary. `destroy()` ends it.
 */
export function lineChart({ key, title, unit, height = 180, sparkline = false, describe }) {
  const plot = h('div', { class: sparkline ? 'spark-plot' : 'chart-plot', 'aria-hidden': 'true' });
  const summary = h('div', { class: sparkline ? 'spark-summary' : 'chart-summary' });
  const figure = h(
    'figure',
    { class: sparkline ? 'spark' : 'chart card', 'data-chart': key },
    h('figcaption', {}, title),
    plot,
    summary,
  );
  let u;
  let data = [[]];
  let labels = [];
  let shownLabels = '';

  const options = (width) => {
    const stroke = color('--muted');
    const grid = color('--line');
    const colors = labels.map((_, i) => color(PALETTE[i % PALETTE.length]));
    const axis = { stroke, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, font: '12px system-ui, sans-serif' };
    return {
      width,
      height,
      legend: { show: false },
      cursor: sparkline ? { show: false } : { drag: { x: false, y: false } },
      select: { show: false },
      padding: sparkline ? [4, 2, 4, 2] : [10, 10, 0, 0],
      // From zero, with headroom, never flatter than a readable minimum (an idle chart still has ticks).
      // At least the last ten minutes across, so a young history reads in minutes, not in years.
      // (From the samples themselves: for a single one uPlot proposes a span of days.)
      scales: { x: { time: true, range: (self) => timeSpan(self.data[0]) }, y: { range: (_, min, max) => [Math.min(0, min ?? 0), unit === 'ratio' ? 1 : Math.max(MIN_TOP[unit] ?? 1, (max ?? 0) * 1.1)] } },
      axes: sparkline ? [{ show: false }, { show: false }] : [axis, { ...axis, size: labelWidth, values: (_, ticks) => ticks.map((t) => formatValue(t, unit)) }],
      series: [
        {},
        ...labels.map((label, i) => ({
          label,
          stroke: colors[i],
          width: sparkline ? 1.5 : 2,
          dash: DASHES[Math.floor(i / PALETTE.length) % DASHES.length],
          // A gap is a sample with nothing measured (no request of that group): not bridged. uPlot marks
          // the points where they are sparse, so a lone value between gaps still shows.
          spanGaps: false,
          // A sparkline is a trend: its points are joined across samples with nothing measured.
          ...(sparkline ? { spanGaps: true, points: { fill: colors[i], size: 4 } } : {}),
        })),
      ],
    };
  };

  const width = () => Math.max(120, Math.floor(plot.clientWidth || figure.clientWidth || 300));
  const build = () => {
    u?.destroy();
    const opts = options(width());
    u = new uPlot(opts, data, plot);
    shownLabels = labels.join('\n');
    // The colours drawn with, for a reader (or a test) to see the scheme followed.
    figure.dataset.colors = opts.series.slice(1).map((s) => s.stroke).join(' ');
  };
  const resize = new ResizeObserver(() => {
    if (u && Math.abs(u.width - width()) > 1) u.setSize({ width: width(), height });
  });
  resize.observe(plot);

  const chart = {
    el: figure,
    set(time, lines) {
      labels = lines.map((l) => l.label);
      data = [time, ...lines.map((l) => l.values)];
      if (!u || shownLabels !== labels.join('\n')) build();
      else u.setData(data);
      renderSummary(summary, title, unit, lines, sparkline, describe);
      figure.dataset.points = String(time.length);
    },
    redraw() {
      if (u) build();
    },
    destroy() {
      resize.disconnect();
      live.delete(chart);
      u?.destroy();
      u = undefined;
    },
  };
  live.add(chart);
  watchScheme();
  return chart;
}

/** The x range for sample times `t` (seconds): theirs, but never under ten minutes, ending at the newest. */
function timeSpan(t) {
  const hi = t.length ? t[t.length - 1] : Date.now() / 1000;
  return [Math.min(t.length ? t[0] : hi, hi - 600), hi];
}

/** The room a y axis needs for its longest tick label (uPlot's fixed default cuts "1000 ms"). */
function labelWidth(_, values) {
  const longest = Math.max(0, ...(values ?? []).map((v) => String(v).length));
  return Math.max(40, Math.ceil(longest * 7.5) + 18);
}

/** The latest value of a series (its last non-null one) and its peak. */
function stats(values) {
  let latest = null;
  let peak = null;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    latest = v;
    if (peak === null || v > peak) peak = v;
  }
  return { latest, peak };
}

/** The chart's text alternative: a table (latest, peak per line) or, for a sparkline, a sentence. */
function renderSummary(el, title, unit, lines, sparkline, describe) {
  if (sparkline) {
    const { latest, peak } = stats(lines[0]?.values ?? []);
    el.replaceChildren(describe ? describe(latest, peak) : `${title}: ${latest === null ? 'nothing measured in the last hour' : `latest ${formatValue(latest, unit)}, peak ${formatValue(peak, unit)}`}`);
    el.dataset.latest = latest === null ? '' : String(latest);
    el.dataset.peak = peak === null ? '' : String(peak);
    return;
  }
  if (!lines.length) {
    el.replaceChildren(h('p', { class: 'hint' }, 'Nothing measured yet.'));
    return;
  }
  el.replaceChildren(
    h(
      'table',
      { class: 'chart-values' },
      h('caption', { class: 'visually-hidden' }, `${title}: latest values and peaks`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Latest'), h('th', { scope: 'col' }, 'Peak'))),
      h(
        'tbody',
        {},
        lines.map((l, i) => {
          const { latest, peak } = stats(l.values);
          const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
          swatch.style.background = `var(${PALETTE[i % PALETTE.length]})`;
          return h(
            'tr',
            { 'data-series': l.label, 'data-latest': latest ?? '', 'data-peak': peak ?? '' },
            h('th', { scope: 'row' }, swatch, l.label),
            h('td', {}, formatValue(latest, unit)),
            h('td', {}, formatValue(peak, unit)),
          );
        }),
      ),
    ),
  );
}
