import type { FastifyRequest } from 'fastify';
import { parseMediaType } from './media-type.js';

/** The representations the server can produce for a resource. */
export type Representation = 'json' | 'hal' | 'html';

const MEDIA: Record<Representation, string> = { json: 'application/json', hal: 'application/hal+json', html: 'text/html' };
/** Every representation, in the order ties are broken. */
export const REPRESENTATIONS = Object.keys(MEDIA) as Representation[];
const cache = new Map<string, Representation>();

/**
 * Picks the representation for an Accept header by q-value; ties go to JSON. Anything not
 * understood falls back to JSON, as most APIs do, rather than a 406 that helps nobody.
 */
export function negotiate(request: Pick<FastifyRequest, 'headers'>): Representation {
  const accept = request.headers.accept;
  if (!accept || accept === '*/*' || accept === 'application/json') return 'json';
  let hit = cache.get(accept);
  if (hit) return hit;
  let best: { rep: Representation; q: number } = { rep: 'json', q: 0 };
  for (const part of accept.split(',')) {
    const { type, params } = parseMediaType(part);
    const q = params.q === undefined ? 1 : Number(params.q);
    const rep = type === 'application/hal+json' ? 'hal' : type === 'text/html' ? 'html' : type === 'application/json' || type === '*/*' || type === 'application/*' ? 'json' : undefined;
    if (rep && q > best.q) best = { rep, q };
  }
  hit = best.rep;
  if (cache.size > 200) cache.clear();
  cache.set(accept, hit);
  return hit;
}

/** The Content-Type of a representation. */
export function mediaType(rep: Representation): string {
  return MEDIA[rep];
}
