// Summarises a V8 .cpuprofile (node --cpu-prof): self and inclusive time by function and by
// module, as a share of all samples. Usage: node summarize.mjs FILE.cpuprofile [--top 40] [--last 10]
// (--last N: only the samples of the profile's last N seconds, i.e. the load, not start-up and seeding;
// --skip N: all but the first N seconds, for a server that took turns with others under load)
// The first table splits the busy samples (not idle) into the phases of a request: each sample goes
// to the phase of the innermost frame on its stack that belongs to one (see PHASES).
import { readFileSync } from 'node:fs';

const file = process.argv[2];
const topIndex = process.argv.indexOf('--top');
const top = topIndex > 0 ? Number(process.argv[topIndex + 1]) : 40;
const lastIndex = process.argv.indexOf('--last');
const skipIndex = process.argv.indexOf('--skip');
const profile = JSON.parse(readFileSync(file, 'utf8'));
if (lastIndex > 0) keepLast(profile, Number(process.argv[lastIndex + 1]) * 1e6);
if (skipIndex > 0) keepLast(profile, profile.endTime - profile.startTime - Number(process.argv[skipIndex + 1]) * 1e6);

/** Drops the samples taken before the profile's last `us` microseconds. */
function keepLast(p, us) {
  let t = p.startTime;
  const times = p.timeDeltas.map((d) => (t += d));
  const from = p.endTime - us;
  const keep = times.map((x) => x >= from);
  p.samples = p.samples.filter((_, i) => keep[i]);
  p.startTime = Math.max(p.startTime, from);
}

/** A short module name: the package under node_modules, the path under src/ or dist/, or node's own. */
export function moduleOf(url) {
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

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const counts = new Map();
for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
const total = profile.samples.length;
const idle = [...counts].filter(([id]) => ['(idle)', '(program)', '(garbage collector)'].includes(nodes.get(id).callFrame.functionName));

const fnKey = (n) => {
  const f = n.callFrame;
  return `${f.functionName || '(anonymous)'} ${moduleOf(f.url)}:${f.lineNumber + 1}`;
};
const selfFn = new Map();
const inclFn = new Map();
const selfMod = new Map();
const inclMod = new Map();
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
for (const [id, count] of counts) {
  const leaf = nodes.get(id);
  add(selfFn, fnKey(leaf), count);
  add(selfMod, moduleOf(leaf.callFrame.url), count);
  // Inclusive: each function and module once per sample, however often it recurs on the stack.
  const seenFn = new Set();
  const seenMod = new Set();
  for (let n = id; n !== undefined; n = parent.get(n)) {
    const node = nodes.get(n);
    if (node.callFrame.functionName === '(root)') break;
    seenFn.add(fnKey(node));
    seenMod.add(moduleOf(node.callFrame.url));
  }
  for (const k of seenFn) add(inclFn, k, count);
  for (const k of seenMod) add(inclMod, k, count);
}

/**
 * Phases of a request. The first phases claim a sample when any frame of its stack is theirs (a
 * SQL statement run by the group commit is a write, wherever its leaf is); the last ones go by the
 * innermost frame that matches, so Fastify code called from a handler counts as Fastify.
 */
const mod = (f) => moduleOf(f.url);
const BY_STACK = [
  ['socket write (writev syscall)', (f) => f.functionName === 'writev' || f.functionName === 'writevGeneric' || f.functionName === 'writeGeneric'],
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['store write (transaction, SQL, fsync)', (f) => /restwell\/store\/(sqlite\/sqlite-group-commit|mutate|write-sql)/.test(mod(f)) || f.functionName === 'fsync'],
  ['store read (cache check, SQL)', (f) => /restwell\/store\//.test(mod(f))],
  ['auth (guard, token cache, rules)', (f) => /restwell\/auth\//.test(mod(f))],
  ['validation (ajv)', (f) => mod(f) === 'ajv' || /restwell\/core\/validate/.test(mod(f))],
];
const BY_LEAF = [
  ['handler, negotiation, representation', (f) => /restwell\/(http|resources|core|app)\//.test(mod(f))],
  ['Fastify (routing, hooks, reply, logger)', (f) => /^(fastify|find-my-way|avvio|pino|toad-cache|@fastify\/.*|fast-.*)$/.test(mod(f))],
  ['node:http (parse, response, streams)', (f) => /^node:(_http|internal\/streams|net|events|internal\/stream_base)/.test(mod(f))],
];
const phase = new Map();
let busy = 0;
for (const [id, count] of counts) {
  const leaf = nodes.get(id);
  if (['(idle)', '(program)'].includes(leaf.callFrame.functionName)) continue;
  busy += count;
  const frames = [];
  for (let n = id; n !== undefined; n = parent.get(n)) frames.push(nodes.get(n).callFrame);
  const name =
    BY_STACK.find(([, test]) => frames.some(test))?.[0] ??
    frames.map((f) => BY_LEAF.find(([, test]) => test(f))?.[0]).find(Boolean) ??
    'timers, microtasks, other';
  add(phase, name, count);
}

const pct = (v) => `${((v / total) * 100).toFixed(1).padStart(5)}%`;
const table = (title, m, n = top) => {
  console.log(`\n## ${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${pct(v)}  ${k}`);
};
const ms = (profile.endTime - profile.startTime) / 1000;
console.log(`${file}: ${total} samples over ${(ms / 1000).toFixed(1)} s; ${idle.map(([id, c]) => `${nodes.get(id).callFrame.functionName} ${pct(c).trim()}`).join(', ')}`);
console.log(`\n## phases (share of ${busy} busy samples: not idle, not (program))`);
for (const [k, v] of [...phase].sort((a, b) => b[1] - a[1])) console.log(`${((v / busy) * 100).toFixed(1).padStart(5)}%  ${k}`);
table('self time by module', selfMod, 25);
table('inclusive time by module', inclMod, 25);
table('self time by function', selfFn);
table('inclusive time by function', inclFn);
