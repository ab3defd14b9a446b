import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TurnStamp } from './turn-stamp.js';

test('the reads of one turn share one stamp, taken after the last of them was asked', async () => {
  let commits = 0;
  let taken = 0;
  const stamps = new TurnStamp(() => {
    taken++;
    return commits;
  });
  const first = stamps.next();
  commits++; // a commit acknowledged after the first read was asked, before the second was
  const second = stamps.next();
  assert.deepEqual(await Promise.all([first, second]), [1, 1], 'both see the commit made before the last read was asked');
  assert.equal(taken, 1);
  commits++;
  assert.equal(await stamps.next(), 2, 'a read in a later turn gets a stamp of its own');
  assert.equal(taken, 2);
});

test('a stamp that cannot be read fails the reads of that turn only', async () => {
  let broken = true;
  const stamps = new TurnStamp(() => {
    if (broken) throw new Error('gone');
    return 7;
  });
  await assert.rejects(stamps.next(), /gone/);
  broken = false;
  assert.equal(await stamps.next(), 7);
});
