// The typed event catalog over HTTP, on every engine: GET /event-types (JSON, HTML, 304), the events the
// server really writes and delivers matching its schemas, endpoint eventTypes checked against it, the
// AsyncAPI document valid for @asyncapi/parser, and a TypeScript client generated from /openapi.json
// (openapi-typescript) typing webhook payloads: a right use compiles, a wrong one does not.
import { RecordingReceiver } from './recording-receiver.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Parser } from '@asyncapi/parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { Webhook } from 'standardwebhooks';
import type { RestwellServer } from '../../src/app/server.js';
import { createAjv } from '../../src/config/ajv.js';
import { engines, testServer } from '../../src/test-support/test-server.js';
import { signStandardWebhooks } from '../../src/webhooks/inbound/verifiers/standard-webhooks.js';
import { ROOT } from '../support-process.js';
import { adminKey, eventually } from './webhooks-support.js';

const HOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const CONFIG = {
  resources: {
    characters: { fields: { name: { type: 'string', required: true }, number: { type: 'string' } }, access: { read: 'public', write: 'public' } },
    notes: { id: 'uuid', fields: { text: { type: 'string', required: true, maxLength: 20 }, about: { type: 'reference', to: 'characters' }, stars: { type: 'integer', minimum: 0, maximum: 5 } }, access: { read: 'public', write: 'public' } },
  },
  webhooks: {
    outbound: { allowNetworks: ['127.0.0.1'], retrySchedule: ['1h'], pollInterval: '50ms' },
    sources: {
      hooks: { provider: 'standard-webhooks', verify: { secret: HOOK_SECRET }, actions: [{ emit: true }] },
      // Stores what it receives and emits nothing: its webhook.quiet.received never happens.
      quiet: { provider: 'standard-webhooks', verify: { secret: HOOK_SECRET }, actions: [{ store: 'characters', map: { name: 'payload.name' } }] },
    },
  },
};
const TYPES = [
  'characters.created', 'characters.updated', 'characters.deleted', 'notes.created', 'notes.updated', 'notes.deleted', 'webhook.hooks.received', 'webhook.test',
];

/** Runs tsc on `files` in `dir` (strict), returning its exit status and output. */
function tsc(dir: string, files: string[]): { status: number | null; output: string } {
  const config = { compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', skipLibCheck: true, types: [] }, files };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', cwd: dir });
  return { status: run.status, output: run.stdout + run.stderr };
}

for (const engine of engines) {
  describe(`the event catalog (${engine.name})`, () => {
    let server: RestwellServer;
    let admin: Record<string, string>;
    const receiver = new RecordingReceiver();
    let receiverUrl = '';
    const received = receiver.got;

    async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const res = await server.app.inject({ method: method as 'GET', url, headers: { ...admin, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers }, payload });
      assert.ok(res.statusCode < 500, `${method} ${url} → ${res.statusCode} ${res.body}`);
      return res;
    }

    before(async () => {
      await receiver.start();
      receiverUrl = `${receiver.base}/hook`;
      server = await testServer(engine, CONFIG);
      await server.app.ready();
      admin = { authorization: `Bearer ${await adminKey(server)}` };
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    test('GET /event-types lists every emitted type with a schema and an example; public, cacheable, HTML too, linked from the root', async () => {
      const res = await server.app.inject({ url: '/event-types' });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const body = res.json();
      assert.deepEqual(body.eventTypes.map((e: any) => e.type), TYPES);
      const ajv = createAjv();
      for (const e of body.eventTypes) {
        assert.ok(e.description && e.resource && typeof e.subscribable === 'boolean', e.type);
        assert.ok(ajv.validate(e.schema, e.example), `${e.type}: ${ajv.errorsText()}`);
      }
      assert.equal(body._links.self.href, '/event-types');
      assert.equal(body._links.asyncapi.href, '/asyncapi.json');
      // One body, revalidated with its strong ETag; each representation has its own.
      const etag = String(res.headers.etag);
      assert.equal((await server.app.inject({ url: '/event-types', headers: { 'if-none-match': etag } })).statusCode, 304);
      const html = await server.app.inject({ url: '/event-types', headers: { accept: 'text/html' } });
      assert.equal(html.statusCode, 200);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.ok(html.body.includes('characters.created'));
      assert.equal((await server.app.inject({ url: '/event-types', headers: { accept: 'text/html', 'if-none-match': String(html.headers.etag) } })).statusCode, 304);
      assert.equal((await server.app.inject({ method: 'HEAD', url: '/event-types' })).statusCode, 200);
      const root = (await server.app.inject({ url: '/' })).json();
      assert.equal(root._links['event-types'].href, '/event-types');
      assert.equal(root._links.asyncapi.href, '/asyncapi.json');
      // The endpoints' list of subscribable types reads the same catalog.
      const subscribable = (await call('GET', '/webhook-endpoints/event-types')).json();
      assert.deepEqual(subscribable.eventTypes, TYPES.filter((t) => t !== 'webhook.test'));
    });

    test('endpoint eventTypes are checked against the catalog: a source that does not emit, and webhook.test, are refused', async () => {
      for (const bad of ['webhook.quiet.received', 'webhook.test', 'webhook.nope.*', 'notes.archived']) {
        const res = await call('POST', '/webhook-endpoints', { url: receiverUrl, eventTypes: [bad] });
        assert.equal(res.statusCode, 422, `${bad}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
        assert.equal(res.json().errors[0].pointer, '/eventTypes/0');
      }
      const ok = await call('POST', '/webhook-endpoints', { url: receiverUrl, eventTypes: ['webhook.hooks.received', 'webhook.*'] });
      assert.equal(ok.statusCode, 201, ok.body);
      assert.equal((await call('DELETE', `/webhook-endpoints/${ok.json().id}`)).statusCode, 204);
    });

    test('every event the server logs and delivers (a test message too) matches the schema of its type', async () => {
      const catalog = new Map<string, any>((await call('GET', '/event-types')).json().eventTypes.map((e: any) => [e.type, e]));
      const ep = await call('POST', '/webhook-endpoints', { url: receiverUrl });
      assert.equal(ep.statusCode, 201, ep.body);
      const { id: endpointId, secret } = ep.json();
      const homer = (await call('POST', '/characters', { name: 'Homer' })).json();
      await call('PATCH', `/characters/${homer.id}`, { number: '555-0100' }, { 'content-type': 'application/merge-patch+json' });
      const note = (await call('POST', '/notes', { text: 'Likes donuts', about: homer.id, stars: 4 })).json();
      await call('DELETE', `/notes/${note.id}`);
      await call('DELETE', `/characters/${homer.id}`);
      const inbound = JSON.stringify({ type: 'invoice.paid', amount: 12 });
      const hook = await server.app.inject({ method: 'POST', url: '/webhooks/hooks', headers: { 'content-type': 'application/json', ...signStandardWebhooks({ secret: HOOK_SECRET, id: 'msg_in_1', body: inbound }) }, payload: inbound });
      assert.equal(hook.statusCode, 200, hook.body);
      assert.equal((await call('POST', `/webhook-endpoints/${endpointId}/test`)).json().ok, true);
      const expected = ['characters.created', 'characters.updated', 'notes.created', 'notes.deleted', 'characters.deleted', 'webhook.hooks.received', 'webhook.test'];
      await eventually(async () => received.length >= expected.length, 'every delivery');
      const ajv = createAjv();
      const delivered = received.map((r) => r.body);
      assert.deepEqual(delivered.map((e) => e.type).sort(), [...expected].sort());
      for (const [i, event] of delivered.entries()) {
        assert.ok(ajv.validate(catalog.get(event.type).schema, event), `${event.type}: ${ajv.errorsText()}\n${received[i]!.raw}`);
        // The headers the OpenAPI webhooks and the AsyncAPI messages promise.
        assert.doesNotThrow(() => new Webhook(secret).verify(received[i]!.raw, received[i]!.headers as Record<string, string>));
        assert.equal(received[i]!.headers['webhook-id'], event.id);
      }
      // The log (and so the stream, which sends each event as GET /events/{id} serves it) holds the same shapes.
      const logged = (await call('GET', '/events?limit=50')).json()._embedded.events as any[];
      assert.equal(logged.length, expected.length - 1);
      for (const event of logged) assert.ok(ajv.validate(catalog.get(event.type).schema, event), `${event.type}: ${ajv.errorsText()}`);
    });

    test('GET /asyncapi.json is an AsyncAPI 3.0 document @asyncapi/parser reads with no error', async (t) => {
      const res = await server.app.inject({ url: '/asyncapi.json' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal((await server.app.inject({ url: '/asyncapi.json', headers: { 'if-none-match': String(res.headers.etag) } })).statusCode, 304);
      const { document, diagnostics } = await new Parser().parse(res.body);
      const errors = diagnostics.filter((d) => d.severity === 0);
      assert.deepEqual(errors.map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`), []);
      // Known and kept: the parser suggests AsyncAPI 3.1 (information only); this document is 3.0 as asked.
      for (const d of diagnostics) t.diagnostic(`asyncapi parser (severity ${d.severity}): ${d.code}: ${d.message}`);
      assert.ok(diagnostics.every((d) => d.severity >= 2), 'no warnings either');
      assert.ok(document);
      assert.equal(document.version(), '3.0.0');
      assert.equal(document.channels().get('eventStream')!.address(), '/events/stream');
      const stream = document.operations().get('streamEvents')!.messages().all().map((m) => m.name()).sort();
      assert.deepEqual(stream, TYPES.filter((t) => t !== 'webhook.test').sort());
      const webhooks = document.operations().get('deliverWebhooks')!.messages().all();
      assert.deepEqual(webhooks.map((m) => m.name()).sort(), [...TYPES].sort());
      assert.ok(webhooks.every((m) => m.headers()?.required()?.includes('webhook-signature')));
    });

    test('a TypeScript client generated from /openapi.json types webhook payloads: a right use compiles, a wrong one does not', async () => {
      const doc = (await server.app.inject({ url: '/openapi.json' })).json();
      assert.deepEqual(Object.keys(doc.webhooks), TYPES);
      const docs = (await server.app.inject({ url: '/docs' })).body;
      for (const type of TYPES) assert.ok(docs.includes(`id="op-${doc.webhooks[type].post.operationId}"`), `${type} on /docs`);
      const example = (await call('GET', '/event-types')).json().eventTypes.find((e: any) => e.type === 'characters.created').example;
      const dir = mkdtempSync(join(tmpdir(), 'restwell-client-'));
      try {
        writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc)));
        const payload = "import type { webhooks } from './api';\nexport type Payload<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];\n";
        writeFileSync(join(dir, 'good.ts'), `${payload}
export const example: Payload<'characters.created'> = ${JSON.stringify(example)};
export function describe(event: Payload<'characters.created'>): string {
  const name: string = event.data.name;
  const id: number = event.recordId;
  const number: string | null = event.data.number;
  return \`\${event.type} \${id} \${name} \${number ?? ''} \${event._links.record.href}\`;
}
export function onHook(event: Payload<'webhook.hooks.received'>): unknown {
  return event.data.kind === 'event' ? event.data.payload : undefined;
}
`);
        writeFileSync(join(dir, 'bad.ts'), `${payload}
export function count(event: Payload<'characters.created'>): number {
  return event.data.name;
}
export const deleted: Payload<'characters.created'> = { ...(${JSON.stringify(example)}), type: 'characters.deleted' };
`);
        // One compilation of both (tsc on the generated file is the slow part): errors in bad.ts only, exactly the two wrong uses.
        const run = tsc(dir, ['good.ts', 'bad.ts']);
        assert.notEqual(run.status, 0, 'the wrong use compiled');
        const errors = run.output.split('\n').filter((line) => /error TS/.test(line));
        assert.equal(errors.length, 2, run.output);
        assert.match(errors[0]!, /^bad\.ts\(5,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
        assert.match(errors[1]!, /^bad\.ts\(7,\d+\): error TS2322: Type '"characters\.deleted"' is not assignable to type '"characters\.created"'/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
