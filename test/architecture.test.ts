import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './support-process.js';

// The layering of src/ (.dependency-cruiser.cjs): no import circle, no import from a lower layer
// to a higher one, no import between sibling features. Checked by dependency-cruiser, which
// resolves every import (type-only ones too) the way TypeScript does.
const depcruise = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const config = join(ROOT, '.dependency-cruiser.cjs');

function cruise(cwd: string, folder = 'src') {
  return spawnSync(process.execPath, [depcruise, folder, '--config', config, '--output-type', 'err'], { cwd, encoding: 'utf8' });
}

test('src/ has no import circle and no upward import', () => {
  const run = cruise(ROOT);
  assert.equal(run.status, 0, `dependency-cruiser found violations:\n${run.stdout}${run.stderr}`);
});

test('bench/ has no import circle either', () => {
  const run = cruise(ROOT, 'bench');
  assert.equal(run.status, 0, `dependency-cruiser found violations:\n${run.stdout}${run.stderr}`);
});

test('every folder of src/ is a layer the rules know', () => {
  const rules = (createRequire(import.meta.url)(config) as { forbidden: Array<{ name: string }> }).forbidden.map((r) => r.name);
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true });
  assert.deepEqual(folders.filter((f) => !f.isDirectory()).map((f) => f.name), [], 'no module sits outside a layer folder');
  for (const f of folders.filter((d) => d.isDirectory())) assert.ok(rules.includes(`${f.name}-imports-inward`), `src/${f.name}/ has a layer rule`);
});

test('the rules catch an upward import, a sibling import and a circle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'restwell-layers-'));
  try {
    cpSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    const write = (path: string, text: string) => {
      mkdirSync(join(dir, 'src', path, '..'), { recursive: true });
      writeFileSync(join(dir, 'src', path), text);
    };
    write('core/model.ts', "import { table } from '../app/table.js';\nexport const model = table;\n");
    write('app/table.ts', "import { model } from '../core/model.js';\nexport const table = 1;\nexport const again = model;\n");
    write('events/feed.ts', "import { list } from '../resources/list.js';\nexport const feed = list;\n");
    write('resources/list.ts', 'export const list = 1;\n');
    const run = cruise(dir);
    assert.notEqual(run.status, 0);
    assert.match(run.stdout, /core-imports-inward: src\/core\/model\.ts → src\/app\/table\.ts/);
    assert.match(run.stdout, /events-imports-inward: src\/events\/feed\.ts → src\/resources\/list\.ts/);
    assert.match(run.stdout, /no-circular/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
