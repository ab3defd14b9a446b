import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import type { RestwellServer } from '../../src/app/server.js';
import { engines, listeningServer, PUBLIC_DEMO } from '../../src/test-support/test-server.js';

/**
 * A CRUD round trip written against the types openapi-typescript generates from /openapi.json, with
 * openapi-fetch, both with their default settings: what a TypeScript user of the API writes first.
 * It must compile under `strict`, with no cast, and do what it says against a real server.
 */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

export async function roundTrip(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  const created = await client.POST('/characters', { body: { name: 'Homer', number: '555-0100' } });
  // POST answers one record (201), or the records of an array body (200): the record is the one with an id.
  if (!created.data || !('id' in created.data)) throw new Error(\`create: \${created.response.status} \${created.error?.detail}\`);
  const id: number = created.data.id;
  const name: string = created.data.name;

  const read = await client.GET('/characters/{id}', { params: { path: { id } } });
  if (!read.data) throw new Error(\`read: \${read.error?.title}\`);
  const etag = read.response.headers.get('etag') ?? '';
  const version: number = read.data.version;
  const self: string = read.data._links.self.href;

  const patched = await client.PATCH('/characters/{id}', {
    params: { path: { id }, header: { 'If-Match': etag } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: { number: '555-0199' },
  });
  if (!patched.data) throw new Error(\`patch: \${patched.error?.detail}\`);
  const number: string | undefined = patched.data.number ?? undefined;

  const jsonPatched = await client.PATCH('/characters/{id}', {
    params: { path: { id } },
    headers: { 'Content-Type': 'application/json-patch+json' },
    body: [{ op: 'test', path: '/number', value: '555-0199' }, { op: 'replace', path: '/number', value: '555-0142' }],
  });
  const jsonPatchedNumber = jsonPatched.data?.number ?? undefined;

  const stale = await client.PUT('/characters/{id}', { params: { path: { id }, header: { 'If-Match': etag } }, body: { name: 'Homer J.' } });
  const staleStatus: number = stale.response.status;
  const staleType: string | undefined = stale.error?.type;

  const replaced = await client.PUT('/characters/{id}', { params: { path: { id } }, body: { name: 'Homer J.' } });
  if (!replaced.data) throw new Error(\`replace: \${replaced.error?.detail}\`);

  const page = await client.GET('/characters', { params: { query: { limit: 10, sort: ['-id'] } } });
  if (!page.data) throw new Error(\`list: \${page.error?.detail}\`);
  // With fields= a page holds sparse records, so a member may be absent.
  const names: Array<string | undefined> = page.data._embedded.characters.map((c) => c.name);

  const deleted = await client.DELETE('/characters/{id}', { params: { path: { id } } });
  const gone = await client.GET('/characters/{id}', { params: { path: { id } } });
  const goneStatus: number | undefined = gone.error?.status;

  return { id, name, version, self, number, jsonPatchedNumber, staleStatus, staleType, replaced: replaced.data.name, names, deleted: deleted.response.status, goneStatus };
}
`;

/** Compiles `file` (strict, as a user's project would) and returns its diagnostics as text. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.split('/').pop()}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

for (const engine of engines) {
  describe(`a typed client generated from /openapi.json (openapi-typescript + openapi-fetch) (${engine.name})`, () => {
    let server: RestwellServer;
    let base: string;
    // Inside the repository (test-output/ is ignored by git), so the client's imports resolve to its node_modules.
    const output = fileURLToPath(new URL('../../test-output/', import.meta.url));
    mkdirSync(output, { recursive: true });
    const dir = mkdtempSync(join(output, 'typed-client-'));
    before(async () => {
      ({ server, base } = await listeningServer(engine, PUBLIC_DEMO));
    });
    after(async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('compiles under strict TypeScript and does a CRUD round trip against the server', async () => {
      const doc = await (await fetch(`${base}/openapi.json`)).json();
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
      writeFileSync(join(dir, 'client.ts'), CLIENT);
      assert.deepEqual(typeErrors(join(dir, 'client.ts')), []);

      const { roundTrip } = await import(pathToFileURL(join(dir, 'client.ts')).href);
      const result = await roundTrip(base);
      assert.equal(result.name, 'Homer');
      assert.equal(result.version, 1);
      assert.equal(result.self, `/characters/${result.id}`);
      assert.equal(result.number, '555-0199');
      assert.equal(result.jsonPatchedNumber, '555-0142');
      assert.deepEqual([result.staleStatus, result.staleType], [412, `${base}/problems/precondition-failed`]);
      assert.equal(result.replaced, 'Homer J.');
      assert.deepEqual(result.names, ['Homer J.']);
      assert.equal(result.deleted, 204);
      assert.equal(result.goneStatus, 404);
    });
  });
}
