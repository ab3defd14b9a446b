import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventRecord } from '../../core/events.js';
import { eventBody } from './delivery-body.js';

const event: EventRecord = { seq: 7, id: 'evt_1', type: 'characters.created', resource: 'characters', recordId: 3, data: { name: 'Lisa' }, createdAt: '2026-01-01T00:00:00.000Z', owner: 'sub-1' };

test('the body is the event as GET /events/{id} serves it, without its owner or position', () => {
  const body = JSON.parse(eventBody(undefined)(event));
  assert.deepEqual(body, { id: 'evt_1', type: 'characters.created', resource: 'characters', recordId: 3, createdAt: '2026-01-01T00:00:00.000Z', data: { name: 'Lisa' }, _links: { self: { href: '/events/evt_1' }, record: { href: '/characters/3' } } });
});

test('links are absolute against publicUrl when it is set', () => {
  const body = JSON.parse(eventBody('https://api.example.com')(event));
  assert.equal(body._links.self.href, 'https://api.example.com/events/evt_1');
  assert.equal(body._links.record.href, 'https://api.example.com/characters/3');
});
