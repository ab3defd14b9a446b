import type { RestwellConfig } from '../config/types.js';
import { changeExample, receivedExample, testExample } from './event-examples.js';
import { envelopeSchema, receivedDataSchema, recordDataSchema, recordIdSchema, TEST_DATA_SCHEMA, type InboundKind, type JsonSchema } from './event-schemas.js';
import { eventType, type ChangeAction } from './events.js';
import type { ResourceDefinition } from './resource.js';

/** The type of the message `POST /webhook-endpoints/{id}/test` sends: never in the log, so never subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

const ACTIONS: readonly ChangeAction[] = ['created', 'updated', 'deleted'];

/** One event type of the catalog: what it is, the JSON Schema of the event as delivered, and an example. */
export interface EventTypeEntry {
  type: string;
  description: string;
  /** The `resource` member its events carry. */
  resource: string;
  /** True for the types of the event log (`GET /events`, the stream, endpoint `eventTypes`); false for `webhook.test`. */
  subscribable: boolean;
  schema: JsonSchema;
  example: Record<string, unknown>;
}

/** An inbound source whose deliveries become events (it has the `emit` action), with what its provider posts. */
export interface EmittingSource {
  name: string;
  kind: InboundKind;
}

/** What the catalog is built from: the resources and the sources that emit. */
export interface CatalogInput {
  resources: ReadonlyMap<string, ResourceDefinition>;
  sources: readonly EmittingSource[];
}

/**
 * The sources of the config whose deliveries become events (`actions` holds `emit`), in config order.
 * `kindOf` names what a provider posts (the catalog cannot know providers); unknown ones post `event`s.
 */
export function emittingSources(config: Pick<RestwellConfig, 'webhooks'>, kindOf: (provider: string) => InboundKind | undefined = () => undefined): EmittingSource[] {
  return Object.entries(config.webhooks?.sources ?? {})
    .filter(([, s]) => (s.actions ?? []).some((a) => 'emit' in a && a.emit === true))
    .map(([name, s]) => ({ name, kind: kindOf(s.provider) ?? 'event' }));
}

/**
 * Every type the event log can hold, the ones an endpoint's `eventTypes` may name:
 * `<resource>.created|updated|deleted` per resource, then `webhook.<source>.received` per emitting source.
 */
export function subscribableEventTypes(resources: Iterable<string>, sources: readonly Pick<EmittingSource, 'name'>[]): string[] {
  const types: string[] = [];
  for (const name of resources) for (const action of ACTIONS) types.push(eventType(name, action));
  for (const s of sources) types.push(`webhook.${s.name}.received`);
  return types;
}

const CHANGE_WORDS: Record<ChangeAction, string> = {
  created: 'was created (POST, or PUT at a new id)',
  updated: 'was replaced or patched (PUT, PATCH); a write that changes nothing writes no event',
  deleted: 'was deleted; `data` is its last state',
};

/** The whole catalog: every event type the API emits, each with its schema and an example, in a stable order. */
export function eventCatalog(input: CatalogInput): EventTypeEntry[] {
  const entries: EventTypeEntry[] = [];
  for (const r of input.resources.values()) {
    for (const action of ACTIONS) {
      const type = eventType(r.name, action);
      const description = `A record of ${r.name} ${CHANGE_WORDS[action]}.`;
      const schema = envelopeSchema({ type, resource: r.name, recordId: recordIdSchema(r), data: recordDataSchema(r, input.resources), description, links: ['self', 'record'] });
      entries.push({ type, description, resource: r.name, subscribable: true, schema, example: changeExample(r, action, input.resources) });
    }
  }
  for (const s of input.sources) {
    const type = `webhook.${s.name}.received`;
    const resource = `webhooks/${s.name}/events`;
    const description = `The ${s.name} webhook source received a delivery (it has the emit action); \`data\` is what it held${s.kind === 'event' ? '' : ` (an ${s.kind === 'email' ? 'e-mail' : 'SMS'}, or another event its provider posted)`}.`;
    const schema = envelopeSchema({ type, resource, recordId: { type: 'string', pattern: '^whd_[0-9a-f]{32}$' }, data: receivedDataSchema(s.name, s.kind), description, links: ['self', 'record'] });
    entries.push({ type, description, resource, subscribable: true, schema, example: receivedExample(s.name, s.kind) });
  }
  const description = 'A test message, sent only by `POST /webhook-endpoints/{id}/test` to that endpoint: never in the log, so no endpoint subscribes to it and the stream never carries it.';
  const schema = envelopeSchema({ type: TEST_EVENT_TYPE, resource: 'webhook-endpoints', recordId: { type: 'string' }, data: TEST_DATA_SCHEMA, description, links: ['record'] });
  entries.push({ type: TEST_EVENT_TYPE, description, resource: 'webhook-endpoints', subscribable: false, schema, example: testExample() });
  return entries;
}
