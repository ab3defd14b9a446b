import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/load.js';
import { ROOT } from './support-process.js';

const configs = readdirSync(join(ROOT, 'examples')).filter((f) => /\.(ya?ml|json)$/.test(f));

for (const file of configs) {
  test(`examples/${file} is a valid config`, () => {
    // Example secrets are placeholders: any value satisfies the ${ENV} references the file makes.
    const text = readFileSync(join(ROOT, 'examples', file), 'utf8');
    const env = Object.fromEntries([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => [m[1], `example-${m[1].toLowerCase()}`]));
    const config = loadConfig({ file: join(ROOT, 'examples', file), env });
    assert.ok(Object.keys(config.resources).length > 0);
  });
}
