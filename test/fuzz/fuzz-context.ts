import type { WebhookSourceConfig } from '../../src/config/types.js';
import { FUZZ_CONFIG } from './fuzz-config.js';
import { forgedTokens } from './forged-tokens.js';
import { Rng } from './prng.js';
import type { Credentials, FuzzTarget } from './fuzz-target.js';

/** Everything the generators draw on; fixed for a run, so request `i` of a seed is always the same. */
export interface FuzzContext {
  /** The OpenAPI document the server serves at /openapi.json. */
  doc: any;
  credentials: Credentials;
  /** Forged and hostile bearer tokens (forged-tokens.ts). */
  forged: string[];
  /** Paths of records that exist when the run starts, per collection (`/notes` → [`/notes/…`]). */
  records: Record<string, string[]>;
  /** Where the server listens (Twilio signatures cover the URL). */
  base: string;
  sources: Record<string, WebhookSourceConfig>;
}

/** The context for a target: its OpenAPI document as served, its credentials and records, tokens forged for it. */
export async function buildContext(target: FuzzTarget, seed: number): Promise<FuzzContext> {
  const res = await fetch(`${target.base}/openapi.json`);
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  return {
    doc: await res.json(),
    credentials: target.credentials,
    forged: await forgedTokens(target.store, target.credentials.jwt, new Rng(seed)),
    records: target.records,
    base: target.base,
    sources: FUZZ_CONFIG.webhooks.sources as unknown as Record<string, WebhookSourceConfig>,
  };
}

/** An Authorization header (or none) for a request: a real caller, or garbage, or a forged token. */
export function authorization(rng: Rng, ctx: FuzzContext): Record<string, string> {
  const c = ctx.credentials;
  return rng.weighted<Record<string, string>>([
    [20, () => ({})],
    [30, () => ({ authorization: `Bearer ${c.admin}` })],
    [10, () => ({ authorization: `Bearer ${rng.pick([c.alice, c.bob])}` })],
    [5, () => ({ authorization: `Bearer ${c.writer}` })],
    [10, () => ({ authorization: `Bearer ${c.jwt}` })],
    [10, () => ({ authorization: `Bearer ${rng.pick(ctx.forged)}` })],
    [10, () => ({ authorization: garbageAuthorization(rng, c) })],
  ]);
}

function garbageAuthorization(rng: Rng, c: Credentials): string {
  return rng.pick([
    '', 'Bearer', 'Bearer ', `Bearer  ${c.admin}`, `bearer ${c.admin}`, `BEARER ${c.jwt}`, `Bearer ${c.admin} `, `Bearer ${c.admin}x`, `Bearer ${c.admin.slice(0, -1)}`,
    `Bearer ${c.admin}, Bearer ${c.alice}`, `Bearer ${c.admin} ${c.alice}`, 'Bearer rw_', `Bearer rw_${'A'.repeat(43)}`, `Bearer rw_${'a'.repeat(5000)}`, 'Bearer =', 'Bearer ...',
    'Bearer \t', `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`, 'Basic !!!', 'Basic Og==', 'Digest username="x"', 'Negotiate YII=', 'AWS4-HMAC-SHA256 x',
    `Bearer ${Buffer.from('é').toString('latin1')}`, 'Bearer null', 'Bearer undefined', 'Bearer [object Object]', 'Bearer %00', `Bearer ${'a'.repeat(16000)}`,
  ]);
}
