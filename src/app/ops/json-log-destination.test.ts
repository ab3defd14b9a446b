import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { jsonLogDestination, LOG_BUFFER_BYTES } from './json-log-destination.js';

test('to a regular file, a full batch is written before write() returns, and the rest by flush', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rw-log-destination-'));
  const file = join(dir, 'out.log');
  const fd = openSync(file, 'a');
  try {
    const destination = jsonLogDestination(fd, false);
    const line = `{"level":30,"msg":"${'x'.repeat(100)}"}\n`;
    const count = Math.ceil(LOG_BUFFER_BYTES / line.length) + 10;
    for (let i = 0; i < count; i++) destination.write(line);
    // No callback has run yet: whatever is in the file was written in this turn.
    const written = readFileSync(file, 'utf8');
    assert.ok(written.length > 0 && written.length <= LOG_BUFFER_BYTES, `${written.length} bytes written at once`);
    assert.equal(written, line.repeat(written.length / line.length));
    await new Promise<void>((resolve, reject) => destination.flush((err) => (err ? reject(err) : resolve())));
    assert.equal(readFileSync(file, 'utf8'), line.repeat(count));
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
});
