import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAjv } from '../../config/ajv.js';
import { resolveConfig } from '../../config/load.js';
import { TEST_EVENT_TYPE, type EventTypeEntry } from '../../core/event-catalog.js';
import type { EventRecord } from '../../core/events.js';
import { toPlain, type StoredRecord } from '../../core/record.js';
import { defineResources } from '../../core/resource.js';
import { halEvent } from '../../events/http/events.js';
import { changeEvent } from '../../store/records.js';
import { documentFor, RICH_CONFIG } from '../../test-support/openapi-lint.js';
import { buildAsyncApi } from '../asyncapi/asyncapi-document.js';
import { receivedEvent } from '../../webhooks/inbound/actions/emit.js';
import { knownEventTypes } from '../../webhooks/outbound/http/event-type-patterns.js';
import { catalogFor } from './catalog-input.js';

const SOURCES = {
  hooks: { provider: 'standard-webhooks', verify: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, actions: [{ emit: true }] },
  mail: { provider: 'postmark', verify: { username: 'u', password: 'p' }, actions: [{ emit: true }, { store: 'authors', map: { name: 'email.subject' } }] },
  texts: { provider: 'twilio', verify: { authToken: 't' }, actions: [{ emit: true }] },
  // Stores only: its deliveries never become events.
  quiet: { provider: 'standard-webhooks', verify: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, actions: [{ store: 'tags', map: { label: 'payload.label' } }] },
};
const RAW = {
  ...RICH_CONFIG,
  resources: {
    ...RICH_CONFIG.resources,
    settings: { singular: true, fields: { theme: { type: 'enum', values: ['light', 'dark'], required: true }, code: { type: 'string', required: true, pattern: '^[A-Z]{3}$' } } },
  },
  webhooks: { sources: SOURCES },
};

function build() {
  const config = resolveConfig(RAW, { env: {} });
  const resources = new Map(defineResources(config).map((r) => [r.name, r]));
  return { config, resources, catalog: catalogFor(config, resources) };
}

const ajv = createAjv();
const entryOf = (catalog: EventTypeEntry[], type: string) => catalog.find((e) => e.type === type)!;
function check(entry: EventTypeEntry, event: unknown): string {
  const validate = ajv.compile(entry.schema);
  return validate(event) ? '' : ajv.errorsText(validate.errors);
}

describe('the event catalog', () => {
  it('lists every type the API emits: three per resource, one per source that emits, and webhook.test', () => {
    const { config, resources, catalog } = build();
    const types = catalog.map((e) => e.type);
    const changes = ['authors', 'blog-posts', 'tags', 'settings'].flatMap((r) => ['created', 'updated', 'deleted'].map((a) => `${r}.${a}`));
    assert.deepEqual(types, [...changes, 'webhook.hooks.received', 'webhook.mail.received', 'webhook.texts.received', TEST_EVENT_TYPE]);
    assert.ok(catalog.every((e) => e.subscribable === (e.type !== TEST_EVENT_TYPE)));
    // The endpoint check reads the same catalog: exactly its subscribable types.
    assert.deepEqual(knownEventTypes({ config, resources }), catalog.filter((e) => e.subscribable).map((e) => e.type));
    assert.deepEqual(entryOf(catalog, 'webhook.mail.received').resource, 'webhooks/mail/events');
    // Its path is the server's own: no collection may take it.
    assert.throws(() => resolveConfig({ resources: { 'event-types': { fields: { a: { type: 'string' } } } } }, { env: {} }), /"event-types" is a path the server itself serves/);
  });

  it('gives each type a valid schema and an example that matches it, whatever the fields constrain', () => {
    const { catalog } = build();
    for (const entry of catalog) {
      assert.equal(check(entry, entry.example), '', entry.type);
      assert.equal((entry.example as { type: string }).type, entry.type);
    }
    assert.match((entryOf(catalog, 'settings.created').example.data as { code: string }).code, /^[A-Z]{3}$/);
  });

  it('is strict where the events are: a wrong field type, another event type or a missing member fails', () => {
    const { catalog } = build();
    const entry = entryOf(catalog, 'authors.updated');
    const example = entry.example as { data: Record<string, unknown> };
    assert.notEqual(check(entry, { ...example, data: { ...example.data, name: 42 } }), '');
    assert.notEqual(check(entry, { ...example, type: 'authors.created' }), '');
    const { recordId: _, ...noRecordId } = example as Record<string, unknown>;
    assert.notEqual(check(entry, noRecordId), '');
    // An e-mail source's event is an e-mail, or another event its provider posted; never an SMS.
    const mail = entryOf(catalog, 'webhook.mail.received');
    const sms = entryOf(catalog, 'webhook.texts.received').example as { data: Record<string, unknown> };
    assert.notEqual(check(mail, { ...mail.example, data: { ...sms.data, source: 'mail' } }), '');
  });

  it('matches the events the server really writes: a change, and each kind of received delivery', () => {
    const { catalog, resources } = build();
    const posts = resources.get('blog-posts')!;
    const record: StoredRecord = {
      id: 7, version: 3, gen: 'g', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z', owner: null,
      data: { title: 'Hi', author: '0193a4f0-c2d8-7b1e-9f3a-5c7d9e1b2a41', related: null, status: 'draft', kind: 'news', words: null, rating: 4.5, featured: false, publishedAt: null, meta: { any: ['thing'] }, tag: 'a-b' },
    };
    const row = changeEvent(posts, 'deleted', record, '2026-01-03T00:00:00.000Z');
    const event: EventRecord = { seq: 1, id: row.id, type: row.type, resource: row.resource, recordId: 7, data: toPlain(record), createdAt: row.created_at, owner: null };
    assert.equal(check(entryOf(catalog, 'blog-posts.deleted'), halEvent(event)), '');
    const delivery = { id: 'whd_0193a4f0c2d87b1e9f3a5c7d9e1b2a99', source: 'mail', eventId: 'm-1', receivedAt: '2026-01-03T00:00:00.000Z' };
    const email = { from: 'a@example.com', to: ['b@example.com'], cc: [], subject: 'S', text: 't', html: '', date: null, messageId: null, headers: {}, attachments: [{ name: 'a.txt', type: 'text/plain', size: 1, content: 'YQ==' }] };
    const received = (source: string, message: Parameters<typeof receivedEvent>[1]) => {
      const e = receivedEvent({ ...delivery, source }, message);
      return halEvent({ seq: 2, id: 'evt_0193a4f0c2d87b1e9f3a5c7d9e1b2a98', type: e.type, resource: e.resource, recordId: e.recordId, data: e.data as Record<string, unknown>, createdAt: delivery.receivedAt, owner: null });
    };
    assert.equal(check(entryOf(catalog, 'webhook.mail.received'), received('mail', { kind: 'email', email })), '');
    assert.equal(check(entryOf(catalog, 'webhook.texts.received'), received('texts', { kind: 'sms', sms: { from: '+1', to: '+2', text: 'hi', messageId: null } })), '');
    assert.equal(check(entryOf(catalog, 'webhook.texts.received'), received('texts', { kind: 'event', payload: { MessageStatus: 'delivered' } })), '');
    assert.equal(check(entryOf(catalog, 'webhook.hooks.received'), received('hooks', { kind: 'event', payload: [1, 'two'] })), '');
    assert.notEqual(check(entryOf(catalog, 'webhook.hooks.received'), received('hooks', { kind: 'sms', sms: { from: '+1', to: '+2', text: 'hi', messageId: null } })), '');
  });

  it('names every type apart in both documents, even types whose names fold to one (a-b and a_b)', () => {
    const raw = { resources: { 'a-b': { fields: { x: { type: 'string' } } }, a_b: { fields: { y: { type: 'integer' } } } } };
    const config = resolveConfig(raw, { env: {} });
    const catalog = catalogFor(config, new Map(defineResources(config).map((r) => [r.name, r])));
    const openapi = documentFor(raw) as any;
    const ids = Object.values<any>(openapi.webhooks).map((w) => w.post.operationId);
    assert.equal(new Set(ids).size, catalog.length);
    const refs = Object.values<any>(openapi.webhooks).map((w) => w.post.requestBody.content['application/json'].schema.$ref);
    assert.equal(new Set(refs).size, catalog.length);
    const asyncapi = buildAsyncApi(config, catalog, '1.0.0') as any;
    assert.equal(Object.keys(asyncapi.components.schemas).length, catalog.length);
    assert.equal(Object.keys(asyncapi.components.messages).length, catalog.length * 2 - 1);
  });
});
