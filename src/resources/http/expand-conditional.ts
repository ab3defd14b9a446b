import type { FastifyRequest } from 'fastify';
import { PreconditionFailedError } from '../../core/errors.js';
import { parseEtagList, representationEtag } from '../../http/conditional.js';
import { negotiate } from '../../http/negotiate.js';

/**
 * The status of a GET or HEAD of an expanded record after its preconditions, against the ETag of
 * the expanded representation (see expandedEtag): 412 (thrown) when If-Match names another one,
 * 304 when If-None-Match names it, else 200. An expanded representation has no Last-Modified (a
 * deleted embedded record changes it without any date moving forward), so If-Modified-Since and
 * If-Unmodified-Since are ignored, as RFC 9110 §13.1.3-4 allows without a Last-Modified.
 */
export function expandedStatus(request: FastifyRequest, etag: string): 200 | 304 {
  const tag = representationEtag(etag, negotiate(request));
  const { 'if-match': ifMatch, 'if-none-match': ifNoneMatch } = request.headers;
  if (ifMatch !== undefined) {
    const tags = parseEtagList(ifMatch);
    if (tags !== '*' && !tags.some((t) => !t.weak && t.tag === tag)) throw new PreconditionFailedError(`If-Match ${ifMatch} does not match the current ETag ${tag} of this expanded representation: it or a record it embeds has changed`);
  }
  if (ifNoneMatch === undefined) return 200;
  const tags = parseEtagList(ifNoneMatch);
  return tags === '*' || tags.some((t) => t.tag === tag) ? 304 : 200;
}
