// Summarises a V8 .cpuprofile (node --cpu-prof): the busy samples by phase of a request, then self and
// inclusive time by module and by function, as shares of the busy samples (bench/cpu-profile.ts).
//   node --import tsx bench/profile/summarize.ts FILE.cpuprofile [--top 40] [--skip S | --last S]
// --skip S: all but the first S seconds (start-up, seeding); --last S: only the last S seconds (the load).
import { breakdown, keepFrom, readProfile, type Share } from '../cpu-profile.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : Number(args[i + 1]);
};
const file = args[0];
if (!file) {
  process.stderr.write('usage: node --import tsx bench/profile/summarize.ts FILE.cpuprofile [--top 40] [--skip S | --last S]\n');
  process.exit(2);
}
const profile = readProfile(file, opt('skip'));
const last = opt('last');
if (last) keepFrom(profile, profile.endTime - last * 1e6);
const b = breakdown(profile, opt('top') ?? 40);
const table = (title: string, shares: Share[]) => {
  console.log(`\n## ${title}`);
  for (const s of shares) console.log(`${(s.share * 100).toFixed(1).padStart(5)}%  ${s.name}`);
};
console.log(`${file}: ${b.samples} samples over ${b.seconds.toFixed(1)} s, ${b.busySamples} busy (${((b.busySamples / Math.max(b.samples, 1)) * 100).toFixed(0)}%)`);
table('phases (share of the busy samples)', b.phases);
table('self time by module', b.modules);
table('self time by function', b.selfTime);
table('inclusive time by function', b.inclusiveTime);
