// Draws a V8 .cpuprofile (node --cpu-prof) as a static flame graph SVG (bench/cpu-profile.ts).
//   node --import tsx bench/profile/flamegraph.ts FILE.cpuprofile OUT.svg [--min 0.002] [--skip SECONDS]
// --skip: leave out the profile's first seconds (start-up and seeding); --min: smallest share drawn.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { flameGraphSvg, readProfile } from '../cpu-profile.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : Number(args[i + 1]);
};
const [file, out] = args;
if (!file || !out) {
  process.stderr.write('usage: node --import tsx bench/profile/flamegraph.ts FILE.cpuprofile OUT.svg [--min 0.002] [--skip SECONDS]\n');
  process.exit(2);
}
writeFileSync(out, flameGraphSvg(readProfile(file, opt('skip')), basename(file), opt('min')));
