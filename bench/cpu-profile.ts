// Reading V8 CPU profiles (`node --cpu-prof`): where a server's busy samples go, by phase of a request
// and by function, and the same call tree drawn as a static flame graph. Used by the bench to explain
// a missed target (bench/explain.ts) and by the command-line tools in bench/profile/.
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The parts of a `.cpuprofile` file this module reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Frames V8 reports when JavaScript is not running: left out of the busy samples. */
const NOT_BUSY = new Set(['(idle)', '(program)']);

/** Reads a profile, keeping only its samples from `skipSeconds` after its start (leaves out start-up and seeding). */
export function readProfile(file: string, skipSeconds = 0): CpuProfile {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  if (skipSeconds > 0) keepFrom(profile, profile.startTime + skipSeconds * 1e6);
  return profile;
}

/** Keeps the samples taken at or after `from` (µs, the profile's clock). */
export function keepFrom(p: CpuProfile, from: number): void {
  let t = p.startTime;
  const keep = p.timeDeltas.map((d) => (t += d) >= from);
  p.samples = p.samples.filter((_, i) => keep[i]);
  p.timeDeltas = p.timeDeltas.filter((_, i) => keep[i]);
  p.startTime = Math.max(p.startTime, from);
}

/** A short module name: the package under node_modules, the path under src/ or dist/, or node's own. */
export function moduleOf(url: string): string {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/(?:dist|src)\/(.+)$/.exec(url);
  if (m) return `restwell/${m[1].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return url;
  return url.split('/').slice(-2).join('/');
}

/** A function as the tables show it: name, module and line. */
function functionLabel(f: CallFrame): string {
  return `${f.functionName || '(anonymous)'} ${moduleOf(f.url)}:${f.lineNumber + 1}`;
}

type FrameTest = (f: CallFrame) => boolean;
const mod = (f: CallFrame) => moduleOf(f.url);

/**
 * Phases of a request. The first phases claim a sample when any frame of its stack is theirs (a
 * SQL statement run by the group commit is a write, wherever its leaf is); the last ones go by the
 * innermost frame that matches, so Fastify code called from a handler counts as Fastify.
 * Auth claims only the frames below the innermost Fastify frame: a guard that lets a request through
 * by calling Fastify's `done` has the rest of the request (parsing, the handler) on its stack, which is
 * not its work; the token checks it calls itself stay below it.
 */
const BY_STACK: Array<[string, FrameTest, 'belowFastify'?]> = [
  ['socket write (writev syscall)', (f) => f.functionName === 'writev' || f.functionName === 'writevGeneric' || f.functionName === 'writeGeneric'],
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['store write (transaction, SQL, fsync)', (f) => /restwell\/store\/(sqlite\/sqlite-group-commit|mutate|write-sql)/.test(mod(f)) || f.functionName === 'fsync'],
  ['PostgreSQL driver (pg: protocol, rows)', (f) => /^pg(-protocol|-pool|-types)?$/.test(mod(f))],
  ['store read (cache check, SQL)', (f) => /restwell\/store\//.test(mod(f))],
  ['webhook verification and inbox', (f) => /restwell\/webhooks\//.test(mod(f))],
  ['auth (guard, token cache, rules)', (f) => /restwell\/auth\//.test(mod(f)), 'belowFastify'],
  ['validation (ajv)', (f) => mod(f) === 'ajv' || /restwell\/core\/validate/.test(mod(f))],
];
const BY_LEAF: Array<[string, FrameTest]> = [
  ['handler, negotiation, representation', (f) => /restwell\/(http|resources|core|app)\//.test(mod(f))],
  ['Fastify (routing, hooks, reply, logger)', (f) => /^(fastify|find-my-way|avvio|pino|toad-cache|@fastify\/.*|fast-.*)$/.test(mod(f))],
  ['node:http (parse, response, streams)', (f) => /^node:(_http|internal\/streams|net|events|internal\/stream_base)/.test(mod(f))],
];

/** A share of the busy samples. */
export interface Share {
  name: string;
  /** 0..1 of the busy samples. */
  share: number;
}

/** What a profile says about where the time went. */
export interface ProfileBreakdown {
  samples: number;
  busySamples: number;
  seconds: number;
  /** Busy samples by phase of a request, largest first. */
  phases: Share[];
  /** Functions by self time (share of busy samples), largest first. */
  selfTime: Share[];
  /** Functions by inclusive time (each once per sample), largest first. */
  inclusiveTime: Share[];
  /** Modules by self time, largest first. */
  modules: Share[];
}

function tree(p: CpuProfile) {
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map<number, number>();
  for (const s of p.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  /** The call frames of a sample's stack, innermost first, without the root. */
  const stack = (id: number): CallFrame[] => {
    const frames: CallFrame[] = [];
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const frame = nodes.get(n)!.callFrame;
      if (frame.functionName === '(root)') break;
      frames.push(frame);
    }
    return frames;
  };
  return { nodes, counts, stack };
}

/** The phases, hottest functions and modules of a profile's busy samples. */
export function breakdown(p: CpuProfile, top = 15): ProfileBreakdown {
  const { nodes, counts, stack } = tree(p);
  const phase = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const modules = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  let busy = 0;
  for (const [id, count] of counts) {
    const leaf = nodes.get(id)!.callFrame;
    if (NOT_BUSY.has(leaf.functionName)) continue;
    busy += count;
    const frames = stack(id);
    const fastifyAt = frames.findIndex((f) => mod(f) === 'fastify');
    const belowFastify = fastifyAt === -1 ? frames : frames.slice(0, fastifyAt);
    const name =
      BY_STACK.find(([, test, scope]) => (scope ? belowFastify : frames).some(test))?.[0] ??
      frames.map((f) => BY_LEAF.find(([, test]) => test(f))?.[0]).find(Boolean) ??
      'timers, microtasks, other';
    add(phase, name, count);
    add(self, functionLabel(leaf), count);
    add(modules, moduleOf(leaf.url), count);
    for (const label of new Set(frames.map(functionLabel))) add(inclusive, label, count);
  }
  const shares = (m: Map<string, number>, n: number): Share[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, v]) => ({ name, share: busy ? v / busy : 0 }));
  return {
    samples: p.samples.length,
    busySamples: busy,
    seconds: (p.endTime - p.startTime) / 1e6,
    phases: shares(phase, phase.size),
    selfTime: shares(self, top),
    inclusiveTime: shares(inclusive, top),
    modules: shares(modules, top),
  };
}

interface Frame {
  name: string;
  /** Colour family: Restwell's own code blue, packages orange, node and V8 red. */
  hue: number;
  value: number;
  children: Map<string, Frame>;
}

/**
 * The profile's busy samples as a flame graph (SVG): stacks merged by function, width = share of
 * samples, idle and GC left out of the root so the request path fills the width; frames under
 * `minShare` of the samples are not drawn.
 */
export function flameGraphSvg(p: CpuProfile, title: string, minShare = 0.002): string {
  const { nodes, counts } = tree(p);
  const skip = new Set([...NOT_BUSY, '(garbage collector)']);
  const short = (url: string) => moduleOf(url).replace(/^restwell\//, '');
  const label = (f: CallFrame) => `${f.functionName || '(anonymous)'}${f.url ? ` ${short(f.url)}:${f.lineNumber + 1}` : ''}`;
  const merge = (into: Frame, from: Frame) => {
    into.value += from.value;
    for (const [k, c] of from.children) {
      const same = into.children.get(k);
      if (same) merge(same, c);
      else into.children.set(k, c);
    }
  };
  const build = (id: number): Frame => {
    const node = nodes.get(id)!;
    const m = moduleOf(node.callFrame.url);
    const hue = m.startsWith('restwell/') ? 200 : m.startsWith('node:') || m.startsWith('(') ? 0 : 30;
    const frame: Frame = { name: label(node.callFrame), hue, value: counts.get(id) ?? 0, children: new Map() };
    for (const c of node.children ?? []) {
      if (skip.has(nodes.get(c)!.callFrame.functionName)) continue;
      const child = build(c);
      const same = frame.children.get(child.name);
      if (same) merge(same, child);
      else frame.children.set(child.name, child);
      frame.value += child.value;
    }
    return frame;
  };
  const root = build(p.nodes[0].id);
  root.name = `all busy samples (${root.value} of ${p.samples.length})`;

  const W = 1600;
  const H = 16;
  let depthMax = 0;
  const rects: Array<{ frame: Frame; x: number; depth: number }> = [];
  const layout = (frame: Frame, x: number, depth: number) => {
    if (frame.value / Math.max(root.value, 1) < minShare) return;
    depthMax = Math.max(depthMax, depth);
    rects.push({ frame, x, depth });
    let cx = x;
    for (const c of [...frame.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      layout(c, cx, depth + 1);
      cx += c.value;
    }
  };
  layout(root, 0, 0);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const color = (frame: Frame) => {
    let h = 0;
    for (const ch of frame.name) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    return `hsl(${frame.hue + (h % 30)},70%,${60 + (h % 15)}%)`;
  };
  const height = (depthMax + 2) * H + 30;
  const total = Math.max(root.value, 1);
  const body = rects
    .map(({ frame, x, depth }) => {
      const rx = (x / total) * W;
      const rw = (frame.value / total) * W;
      const y = height - (depth + 1) * H - 10;
      const pct = ((frame.value / total) * 100).toFixed(1);
      const text = rw > 40 ? `<text x="${(rx + 3).toFixed(1)}" y="${y + 11}">${esc(frame.name.slice(0, Math.floor(rw / 6.5)))}</text>` : '';
      return `<g><title>${esc(frame.name)} — ${pct}% (${frame.value} samples)</title><rect x="${rx.toFixed(1)}" y="${y}" width="${Math.max(rw - 0.5, 0.5).toFixed(1)}" height="${H - 1}" fill="${color(frame)}"/>${text}</g>`;
    })
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" font-family="monospace" font-size="11">\n<text x="4" y="14">${esc(title)} — busy samples only; hover a frame for its share</text>\n${body}\n</svg>\n`;
}
