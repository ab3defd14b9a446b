// Renders a V8 .cpuprofile (node --cpu-prof) as a static flame graph SVG: stacks merged by
// function, width = share of samples, idle and GC left out of the root so the request path fills
// the width. Usage: node flamegraph.mjs FILE.cpuprofile OUT.svg [--min 0.002] [--skip SECONDS]
// (--skip: leave out the profile's first seconds: start-up and seeding)
import { readFileSync, writeFileSync } from 'node:fs';

const [file, out] = process.argv.slice(2);
const minIndex = process.argv.indexOf('--min');
const minShare = minIndex > 0 ? Number(process.argv[minIndex + 1]) : 0.002;
const skipIndex = process.argv.indexOf('--skip');
const profile = JSON.parse(readFileSync(file, 'utf8'));
if (skipIndex > 0) {
  let t = profile.startTime;
  const from = profile.startTime + Number(process.argv[skipIndex + 1]) * 1e6;
  const times = profile.timeDeltas.map((d) => (t += d));
  profile.samples = profile.samples.filter((_, i) => times[i] >= from);
}
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const counts = new Map();
for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
const SKIP = new Set(['(idle)', '(program)', '(garbage collector)']);

const short = (url) => {
  if (!url) return '';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 13).split('/').slice(0, 1).join('/');
  const m = /\/(?:dist|src)\/(.+)$/.exec(url);
  return m ? m[1] : url.split('/').pop();
};
const label = (f) => `${f.functionName || '(anonymous)'}${f.url ? ` ${short(f.url)}:${f.lineNumber + 1}` : ''}`;

/** Merges the call tree by label, so the same function under the same stack is one frame. */
function build(id) {
  const node = nodes.get(id);
  const frame = { name: label(node.callFrame), value: counts.get(id) ?? 0, children: new Map() };
  for (const c of node.children ?? []) {
    if (SKIP.has(nodes.get(c).callFrame.functionName)) continue;
    const child = build(c);
    const same = frame.children.get(child.name);
    if (same) merge(same, child);
    else frame.children.set(child.name, child);
    frame.value += child.value;
  }
  return frame;
}
function merge(into, from) {
  into.value += from.value;
  for (const [k, c] of from.children) {
    const same = into.children.get(k);
    if (same) merge(same, c);
    else into.children.set(k, c);
  }
}
const root = build(profile.nodes[0].id);
root.name = `all busy samples (${root.value} of ${profile.samples.length})`;

const W = 1600;
const H = 16;
let depthMax = 0;
const rects = [];
(function layout(frame, x, depth) {
  if (frame.value / root.value < minShare) return;
  depthMax = Math.max(depthMax, depth);
  rects.push({ frame, x, depth });
  let cx = x;
  for (const c of [...frame.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    layout(c, cx, depth + 1);
    cx += c.value;
  }
})(root, 0, 0);
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const color = (name) => {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const hue = name.includes('node_modules') || /fastify|light-my|find-my-way|avvio|pino/.test(name) ? 30 : /^\(|node:/.test(name) ? 0 : 200;
  return `hsl(${hue + (h % 30)},70%,${60 + (h % 15)}%)`;
};
const height = (depthMax + 2) * H + 30;
const body = rects
  .map(({ frame, x, depth }) => {
    const rx = (x / root.value) * W;
    const rw = (frame.value / root.value) * W;
    const y = height - (depth + 1) * H - 10;
    const pct = ((frame.value / root.value) * 100).toFixed(1);
    const text = rw > 40 ? `<text x="${(rx + 3).toFixed(1)}" y="${y + 11}">${esc(frame.name.slice(0, Math.floor(rw / 6.5)))}</text>` : '';
    return `<g><title>${esc(frame.name)} — ${pct}% (${frame.value} samples)</title><rect x="${rx.toFixed(1)}" y="${y}" width="${Math.max(rw - 0.5, 0.5).toFixed(1)}" height="${H - 1}" fill="${color(frame.name)}"/>${text}</g>`;
  })
  .join('\n');
writeFileSync(
  out,
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="monospace" font-size="11">\n<text x="4" y="14">${esc(file.split('/').pop())} — busy samples only; hover a frame for its share</text>\n${body}\n</svg>\n`,
);
