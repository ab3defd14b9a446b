import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ATOMIC_WRITE_BYTES, jsonLogDestination, LOG_BUFFER_BYTES } from './json-log-destination.js';

for (const [label, shared, size] of [['a process of its own', false, LOG_BUFFER_BYTES], ['a worker sharing stdout', true, ATOMIC_WRITE_BYTES]] as const) {
  test(`jsonLogDestination (${label}): every line written whole and in order, across batches, multi-byte text and lines longer than a batch included`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rw-log-destination-'));
    const file = join(dir, 'out.log');
    const fd = openSync(file, 'a');
    try {
      const destination = jsonLogDestination(fd, shared);
      const lines: string[] = [];
      for (let i = 0; i < 2_000; i++) {
        const text = i % 97 === 0 ? 'é'.repeat(size) : i % 13 === 0 ? `ünïcødé ✓ 𝄞 ${i}` : `line ${i}`;
        lines.push(`{"n":${i},"msg":"${text}"}\n`);
      }
      for (const line of lines) destination.write(line);
      await new Promise<void>((resolve, reject) => destination.flush((err) => (err ? reject(err) : resolve())));
      assert.equal(readFileSync(file, 'utf8'), lines.join(''));
      // What a batch still holds at exit is written synchronously.
      destination.write('{"msg":"last ✓"}\n');
      destination.flushSync();
      assert.equal(readFileSync(file, 'utf8'), `${lines.join('')}{"msg":"last ✓"}\n`);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
