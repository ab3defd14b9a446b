#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ with node's built-in runner (TypeScript through tsx).
// Node 20's --test takes no globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  let out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out = out.concat(find(path));
    else if (entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

// Tests that run the published CLI (`node bin/restwell.js`, as the README does) need dist/ to match
// src/, so the suite compiles first: editing src/ never needs a manual build before `npm test`.
const build = spawnSync(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const only = process.argv.slice(2);
const files = only.length ? only : ['src', 'test'].flatMap((d) => find(d)).sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
