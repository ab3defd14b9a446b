import type { ChangeAction } from './events.js';
import type { IdType } from '../config/types.js';
import type { FieldDefinition, ResourceDefinition } from './resource.js';
import type { InboundKind } from './event-schemas.js';

/** Fixed values, so an example (and the documents that carry it) is the same on every build. */
const EVENT_ID = 'evt_0193a4f0c2d87b1e9f3a5c7d9e1b2a40';
const CREATED = '2026-01-31T12:00:00.000Z';
const CHANGED = '2026-01-31T12:05:00.000Z';
const IDS: Record<IdType, string | number> = { integer: 1, uuid: '0193a4f0-c2d8-7b1e-9f3a-5c7d9e1b2a41', string: 'example-1' };

/** An example id of a record of a resource with this id type. */
export function exampleId(idType: IdType): string | number {
  return IDS[idType];
}

/**
 * A string the field accepts: the first candidate its pattern and lengths allow (words, then runs of
 * one character: `AAA` for `^[A-Z]{3}$`). No candidate fits an unusual pattern: an optional field is
 * then null, a required one gets the first candidate, the only case where an example can miss.
 */
function exampleString(f: FieldDefinition): string | null {
  const runs = ['A', 'a', '1', 'x'].flatMap((c) => Array.from({ length: 8 }, (_, i) => c.repeat(i + 1)));
  const candidates = [`Example ${f.name}`, 'example', 'Example', 'a1', 'example-1', ...runs];
  let pattern: RegExp | undefined;
  try {
    pattern = f.pattern ? new RegExp(f.pattern, 'u') : undefined;
  } catch {
    pattern = undefined;
  }
  const fits = (s: string) => (!pattern || pattern.test(s)) && s.length >= (f.minLength ?? 0) && s.length <= (f.maxLength ?? Infinity);
  const sized = candidates.flatMap((c) => [c, c.slice(0, f.maxLength ?? c.length), c.padEnd(f.minLength ?? 0, c.slice(-1))]);
  return sized.find(fits) ?? (f.required ? candidates[0]! : null);
}

function clamp(n: number, f: FieldDefinition): number {
  return Math.min(Math.max(n, f.minimum ?? -Infinity), f.maximum ?? Infinity);
}

/** A value the field accepts: its default when it has one, else a plain value of its type within its bounds. */
export function exampleValue(f: FieldDefinition, all: ReadonlyMap<string, ResourceDefinition>): unknown {
  if (f.default !== undefined) return f.default;
  switch (f.type) {
    case 'string':
      return exampleString(f);
    case 'integer':
      return clamp(1, f);
    case 'number':
      return clamp(1.5, f);
    case 'boolean':
      return true;
    case 'datetime':
      return CREATED;
    case 'enum':
      return f.values?.[0] ?? null;
    case 'reference':
      return exampleId(all.get(f.to ?? '')?.idType ?? 'integer');
    case 'json':
      return { example: true };
  }
}

/** An example of a change event of `r`, as `GET /events/{id}` serves it. */
export function changeExample(r: ResourceDefinition, action: ChangeAction, all: ReadonlyMap<string, ResourceDefinition>): Record<string, unknown> {
  const id = r.singular ? 1 : exampleId(r.idType);
  const data: Record<string, unknown> = { id };
  for (const f of r.fields) data[f.name] = exampleValue(f, all);
  Object.assign(data, { version: action === 'created' ? 1 : 2, createdAt: CREATED, updatedAt: action === 'created' ? CREATED : CHANGED });
  return envelope(`${r.name}.${action}`, r.name, id, action === 'created' ? CREATED : CHANGED, data, true);
}

/** An example of a `webhook.<source>.received` event of this kind. */
export function receivedExample(source: string, kind: InboundKind): Record<string, unknown> {
  const id = 'whd_0193a4f0c2d87b1e9f3a5c7d9e1b2a42';
  const content =
    kind === 'email'
      ? { email: { from: 'Ada <ada@example.com>', to: ['inbox@example.org'], cc: [], subject: 'Hello', text: 'Hello!', html: '<p>Hello!</p>', date: CREATED, messageId: '<m1@example.com>', headers: { subject: 'Hello' }, attachments: [] } }
      : kind === 'sms'
        ? { sms: { from: '+15550100', to: '+15550199', text: 'Hello!', messageId: 'SM0123' } }
        : { payload: { id: 'ext_1', type: 'order.paid', amount: 1200 } };
  const data = { id, source, eventId: 'ext_1', receivedAt: CREATED, kind, ...content };
  return envelope(`webhook.${source}.received`, `webhooks/${source}/events`, id, CREATED, data, true);
}

/** An example of the `webhook.test` message `POST /webhook-endpoints/{id}/test` sends. */
export function testExample(): Record<string, unknown> {
  const endpointId = 'ep_0193a4f0c2d87b1e9f3a5c7d9e1b2a43';
  const data = { endpointId, message: 'A test message from Restwell: this endpoint is reachable and the signature can be checked.' };
  return envelope('webhook.test', 'webhook-endpoints', endpointId, CREATED, data, false);
}

function envelope(type: string, resource: string, recordId: string | number, createdAt: string, data: Record<string, unknown>, logged: boolean): Record<string, unknown> {
  const record = { href: `/${resource}/${encodeURIComponent(String(recordId))}` };
  const _links = logged ? { self: { href: `/events/${EVENT_ID}` }, record } : { record };
  return { id: EVENT_ID, type, resource, recordId, createdAt, data, _links };
}
