import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defineResources } from '../../src/core/resource.js';
import { openStore } from '../../src/store/open.js';
import { engines } from '../../src/test-support/engines.js';

const [notes] = defineResources({ resources: { notes: { fields: { text: { type: 'string', unique: true } } } } });

for (const engine of engines) {
  describe(`writes sent together (${engine.name})`, () => {
    test('one write that fails among writes sent in the same turn fails alone: the others are stored, each with its event, and the failed one left none', async () => {
      const store = await openStore(engine.freshUrl());
      try {
        await store.sync([notes], { allowDestructive: false });
        await store.insert(notes, { text: 'taken' });
        // Sent in one turn of the event loop: on SQLite one transaction for them all, each in its own savepoint.
        const outcomes = await Promise.allSettled([store.insert(notes, { text: 'a' }), store.insert(notes, { text: 'taken' }), store.insert(notes, { text: 'b' })]);
        assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled']);
        assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /taken/);
        // Every acknowledged write is readable at once.
        for (const o of outcomes) if (o.status === 'fulfilled') assert.equal((await store.get(notes, o.value.id))?.data.text, o.value.data.text);
        const events = await store.listEvents({ limit: 10, resources: ['notes'] });
        assert.equal(events.length, 3, 'one event per stored write');
      } finally {
        await store.close();
      }
    });
  });
}
