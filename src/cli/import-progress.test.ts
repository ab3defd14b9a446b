import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { importProgress } from './import-progress.js';

function fakeStream(tty: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY: tty, columns: 100 }) as unknown as NodeJS.WriteStream & { text(): string };
  let text = '';
  (stream as unknown as PassThrough).on('data', (d) => (text += d));
  stream.text = () => text;
  return stream;
}

describe('import progress', () => {
  it('draws a cli-progress bar per collection on a terminal, then its summary line', async () => {
    const stream = fakeStream(true);
    const progress = importProgress(new Map([['posts', 2000], ['comments', 0]]), stream);
    progress.onProgress('posts', 0);
    progress.onProgress('posts', 1000);
    progress.onProgress('posts', 2000);
    progress.onProgress('comments', 0);
    progress.finish();
    await new Promise((r) => setImmediate(r));
    assert.match(stream.text(), /posts \[[█░]+\] \d+% \| \d+\/2000 rows/);
    assert.match(stream.text(), /posts: 2000 rows in \d+\.\d\d s\n/);
    assert.match(stream.text(), /comments: 0 rows in \d+\.\d\d s\n/);
  });

  it('writes plain lines elsewhere: no escape codes, just the summaries (and a line a second on long loads)', async () => {
    const stream = fakeStream(false);
    const progress = importProgress(new Map([['posts', 2]]), stream);
    progress.onProgress('posts', 0);
    progress.onProgress('posts', 2);
    progress.finish();
    await new Promise((r) => setImmediate(r));
    assert.match(stream.text(), /^posts: 2 rows in \d+\.\d\d s\n$/);
  });
});
