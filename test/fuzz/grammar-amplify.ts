import { FUZZ_SECRETS } from './fuzz-config.js';
import type { FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { Rng } from './prng.js';

type Op = Record<string, unknown>;

/** A record to aim at with the token that may write it (notes belong to alice, then bob; see fuzz-target). */
function target(rng: Rng, ctx: FuzzContext): { path: string; token: string; field: string } {
  const c = ctx.credentials;
  const notes = ctx.records['/notes'] ?? [];
  return rng.pick([
    () => ({ path: rng.pick(ctx.records['/messages'] ?? ['/messages/1']), token: c.admin, field: rng.pick(['to', 'attachments']) }),
    () => {
      const i = rng.int(0, Math.max(0, notes.length - 1));
      return { path: notes[i] ?? '/notes/x', token: i < 3 ? c.alice : c.bob, field: 'tags' };
    },
    () => ({ path: rng.pick(ctx.records['/characters'] ?? ['/characters/1']), token: c.admin, field: rng.pick(['name', 'number']) }),
  ])();
}

/** JSON Patches whose result outgrows the patch: every doubling, copy-and-remove and root copy the grammar knows. */
function amplifyingPatch(rng: Rng, field: string): Op[] {
  const f = `/${field}`;
  const n = rng.int(8, 90);
  const seed: Op = { op: 'add', path: f, value: rng.pick([{ s: 'x'.repeat(rng.int(1, 5000)) }, ['y'.repeat(rng.int(1, 5000))], 'z'.repeat(rng.int(1, 5000)), {}]) };
  const ops = rng.weighted<Op[]>([
    // Copy the field into itself: it doubles (and nests) with every operation.
    [4, () => Array.from({ length: n }, (_, i) => ({ op: 'copy', from: f, path: `${f}/d${i}` }))],
    // An array appended to itself.
    [2, () => [{ op: 'add', path: f, value: ['a'.repeat(rng.int(1, 3000))] }, ...Array.from({ length: n }, () => ({ op: 'copy', from: f, path: `${f}/-` }))]],
    // Copy and remove again: the record stays small, the work does not.
    [2, () => Array.from({ length: n }, (_, i) => [{ op: 'copy', from: f, path: `/_c${i % 3}` }, { op: 'remove', path: `/_c${i % 3}` }]).flat()],
    // The whole record copied into one of its fields, again and again.
    [2, () => Array.from({ length: n }, () => ({ op: 'copy', from: '', path: f }))],
    // Moves back and forth, and moves over what is there.
    [1, () => Array.from({ length: n }, (_, i) => ({ op: 'move', from: i % 2 ? '/_m' : f, path: i % 2 ? f : '/_m' }))],
    // More operations than a patch may have.
    [1, () => Array.from({ length: rng.pick([999, 1000, 1001, 5000]) }, () => rng.pick([{ op: 'test', path: f, value: null }, { op: 'copy', from: f, path: `${f}x` }, { op: 'add', path: '/_a', value: 1 }]))],
    // Doubling values that start in the patch itself, and copies from paths that are not there.
    [1, () => Array.from({ length: n }, (_, i) => rng.pick([{ op: 'copy', from: `${f}/d${i - 1}`, path: `${f}/d${i}` }, { op: 'copy', from: '/nope', path: f }, { op: 'replace', path: '', value: { [field]: 'r'.repeat(rng.int(1, 2000)) } }]))],
  ]);
  return rng.chance(0.7) ? [seed, ...ops] : ops;
}

/** A value of about `bytes` bytes as JSON, of several shapes. */
function sized(rng: Rng, bytes: number): unknown {
  return rng.pick([
    () => 'v'.repeat(bytes),
    () => Array.from({ length: Math.ceil(bytes / 12) }, (_, i) => `item-${i}`),
    () => Object.fromEntries(Array.from({ length: Math.ceil(bytes / 20) }, (_, i) => [`k${i}`, 'value-x'])),
    // Characters that take several bytes in UTF-8, or escapes in JSON.
    () => '€'.repeat(Math.ceil(bytes / 3)),
    () => '\u0001'.repeat(Math.ceil(bytes / 6)),
  ])();
}

/**
 * Requests whose result is larger than their body: JSON Patches that double, copy or move values,
 * merge patches, PUTs and POSTs near and past the record limit, and webhook deliveries that a
 * store action maps into several fields. Each must be bounded (a 413 or 422 problem, or stored
 * within the limit), never a 5xx or a server that stalls on a record of hundreds of megabytes.
 */
export function amplifyRequest(rng: Rng, ctx: FuzzContext): FuzzRequest {
  const t = target(rng, ctx);
  const auth = { authorization: `Bearer ${t.token}` };
  return rng.weighted<FuzzRequest>([
    [5, () => ({ origin: 'grammar: amplify json-patch', method: 'PATCH', path: t.path, headers: { ...auth, 'content-type': 'application/json-patch+json' }, body: Buffer.from(JSON.stringify(amplifyingPatch(rng, t.field))) })],
    [2, () => ({ origin: 'grammar: amplify merge-patch', method: 'PATCH', path: t.path, headers: { ...auth, 'content-type': 'application/merge-patch+json' }, body: Buffer.from(JSON.stringify({ [t.field]: sized(rng, rng.int(100_000, 900_000)) })) })],
    [1, () => ({ origin: 'grammar: amplify put', method: 'PUT', path: t.path, headers: { ...auth, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ text: 'put', [t.field]: sized(rng, rng.int(100_000, 900_000)) })) })],
    [1, () => ({ origin: 'grammar: amplify post', method: 'POST', path: '/messages', headers: { authorization: `Bearer ${ctx.credentials.admin}`, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ subject: 's', to: sized(rng, rng.int(1000, 400_000)), attachments: sized(rng, rng.int(1000, 400_000)) })) })],
    // The `fan` source stores the whole payload in four fields of a message: a record four times the body.
    [2, () => ({ origin: 'grammar: amplify webhook fan', method: 'POST', path: '/webhooks/fan', headers: { 'content-type': 'application/json', 'x-fan-token': FUZZ_SECRETS.fan }, body: Buffer.from(JSON.stringify({ data: sized(rng, rng.pick([100, 20_000, 70_000, 200_000, 900_000])) })), mayChangeWhenRejected: true })],
  ]);
}
