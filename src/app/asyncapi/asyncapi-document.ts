import type { RestwellConfig } from '../../config/types.js';
import type { EventTypeEntry } from '../../core/event-catalog.js';
import type { Json } from '../../http/openapi/components.js';
import { DELIVERY_HEADERS, eventKeys } from '../openapi/webhooks-section.js';

const HTTP_BINDING = '0.3.0';

/** Where the API is, as an AsyncAPI server: `server.publicUrl` when set, else the configured host and port. */
function apiServer(config: RestwellConfig): Json {
  const publicUrl = config.server.publicUrl?.replace(/\/$/, '');
  if (publicUrl) {
    const url = new URL(publicUrl);
    return { host: url.host, protocol: url.protocol.replace(/:$/, ''), ...(url.pathname !== '/' ? { pathname: url.pathname } : {}), description: 'This API (server.publicUrl)' };
  }
  const host = !config.server.host || config.server.host === '0.0.0.0' || config.server.host === '::' ? 'localhost' : config.server.host;
  return { host: `${host.includes(':') ? `[${host}]` : host}:${config.server.port}`, protocol: 'http', description: 'This API (server.host and server.port; set server.publicUrl for the address clients use)' };
}

/** The headers of a delivery, as the schema of an AsyncAPI message's headers. */
const DELIVERY_HEADER_SCHEMA: Json = {
  type: 'object',
  required: DELIVERY_HEADERS.map((h) => h.name),
  properties: Object.fromEntries(DELIVERY_HEADERS.map((h) => [h.name, { ...(h.schema as Json), description: h.description }])),
};

/**
 * The AsyncAPI 3.0 document of the events this API sends: the Server-Sent Events stream
 * (`GET /events/stream`, the events of the log) and the webhooks POSTed to subscribed endpoints
 * (the same events, plus `webhook.test`), each message typed by the event catalog.
 */
export function buildAsyncApi(config: RestwellConfig, catalog: EventTypeEntry[], version: string): Json {
  const logged = catalog.filter((e) => e.subscribable);
  // Component keys (`CharactersCreated`), within the characters AsyncAPI allows in them, as the OpenAPI document names them.
  const keys = eventKeys(catalog);
  const key = (type: string) => keys.get(type)!;
  const schemas = Object.fromEntries(catalog.map((e) => [`${key(e.type)}Event`, e.schema]));
  const payload = (e: EventTypeEntry) => ({ $ref: `#/components/schemas/${key(e.type)}Event` });
  const messages: Record<string, Json> = {};
  for (const e of logged) {
    messages[key(e.type)] = {
      name: e.type,
      title: e.type,
      summary: e.description,
      contentType: 'application/json',
      payload: payload(e),
      examples: [{ name: key(e.type), payload: e.example }],
    };
  }
  for (const e of catalog) {
    messages[`${key(e.type)}Webhook`] = {
      name: e.type,
      title: `${e.type} (webhook)`,
      summary: e.description,
      contentType: 'application/json',
      headers: DELIVERY_HEADER_SCHEMA,
      payload: payload(e),
      examples: [{ name: `${key(e.type)}Webhook`, payload: e.example }],
    };
  }
  const refs = (entries: EventTypeEntry[], suffix: string) => Object.fromEntries(entries.map((e) => [`${key(e.type)}${suffix}`, { $ref: `#/components/messages/${key(e.type)}${suffix}` }]));
  const opRefs = (channel: string, entries: EventTypeEntry[], suffix: string) => entries.map((e) => ({ $ref: `#/channels/${channel}/messages/${key(e.type)}${suffix}` }));
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Restwell API events',
      version,
      description:
        'Every event this API sends, generated from its configuration: the live event stream (Server-Sent Events at `GET /events/stream`) and the ' +
        'webhooks POSTed to subscribed endpoints (`/webhook-endpoints`). Each event is the JSON `GET /events/{id}` serves; `GET /event-types` lists ' +
        'the same types with their schemas, and the OpenAPI document (`/openapi.json`) describes them in its `webhooks`.',
    },
    defaultContentType: 'application/json',
    servers: {
      api: apiServer(config),
      subscriber: {
        host: '{endpointHost}',
        protocol: 'https',
        description: 'A subscriber: the URL of a webhook endpoint (http is allowed too)',
        variables: { endpointHost: { description: 'The host of the endpoint\'s `url`' } },
      },
    },
    channels: {
      eventStream: {
        address: '/events/stream',
        title: 'The live event stream',
        description:
          'Server-Sent Events (`text/event-stream`): `retry: <ms>` first, then per event an `id:` line (its `evt_…` id, sent back as `Last-Event-ID` ' +
          'to resume without a gap) and one `data:` line holding the event. No `event:` field. `: keep-alive` comments keep it open. A reader sees ' +
          'the events `GET /events` would show it (the same read and owner rules); `?type=` filters.',
        servers: [{ $ref: '#/servers/api' }],
        messages: refs(logged, ''),
      },
      webhookEndpoint: {
        address: null,
        title: 'A webhook endpoint',
        description:
          'The `url` of each endpoint of `/webhook-endpoints`: a signed POST (Standard Webhooks) per event its `eventTypes` match, retried on ' +
          '`webhooks.outbound.retrySchedule` until a 2xx; `webhook.test` only through `POST /webhook-endpoints/{id}/test`.',
        servers: [{ $ref: '#/servers/subscriber' }],
        messages: refs(catalog, 'Webhook'),
      },
    },
    operations: {
      streamEvents: {
        action: 'send',
        channel: { $ref: '#/channels/eventStream' },
        title: 'Stream events',
        summary: 'Each event written to the log, to every reader of GET /events/stream that may read it',
        bindings: { http: { method: 'GET', bindingVersion: HTTP_BINDING } },
        messages: opRefs('eventStream', logged, ''),
      },
      deliverWebhooks: {
        action: 'send',
        channel: { $ref: '#/channels/webhookEndpoint' },
        title: 'Deliver webhooks',
        summary: 'Each event an endpoint subscribes to, POSTed to its url and signed',
        bindings: { http: { method: 'POST', bindingVersion: HTTP_BINDING } },
        messages: opRefs('webhookEndpoint', catalog, 'Webhook'),
      },
    },
    components: { schemas, messages },
  };
}
