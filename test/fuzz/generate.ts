import type { FuzzContext } from './fuzz-context.js';
import type { FuzzRequest } from './fuzz-request.js';
import { amplifyRequest } from './grammar-amplify.js';
import { bodyRequest } from './grammar-bodies.js';
import { headerRequest } from './grammar-headers.js';
import { pathRequest } from './grammar-paths.js';
import { queryRequest } from './grammar-query.js';
import { unicodeRequest } from './grammar-unicode.js';
import { webhookRequest } from './grammar-webhooks.js';
import { wireRequestOf } from './grammar-wire.js';
import { openapiRequest } from './openapi-requests.js';
import { Rng, requestSeed } from './prng.js';

/** Request `index` of a run seeded `seed`: the same pair always gives the same request. */
export function generate(seed: number, index: number, ctx: FuzzContext): FuzzRequest {
  const rng = new Rng(requestSeed(seed, index));
  return rng.weighted<FuzzRequest>([
    [40, () => openapiRequest(rng, ctx)],
    [10, () => queryRequest(rng, ctx)],
    [10, () => headerRequest(rng, ctx)],
    [10, () => bodyRequest(rng, ctx)],
    [6, () => unicodeRequest(rng, ctx)],
    [8, () => pathRequest(rng, ctx)],
    [12, () => webhookRequest(rng, ctx)],
    [10, () => wireRequestOf(rng, ctx)],
    [8, () => amplifyRequest(rng, ctx)],
  ]);
}
