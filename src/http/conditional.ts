import type { FastifyRequest } from 'fastify';
import { PreconditionFailedError, PreconditionRequiredError } from '../core/errors.js';
import { etagOf, type StoredRecord } from '../core/record.js';

interface EntityTag {
  weak: boolean;
  tag: string;
}

/** Parses an If-Match / If-None-Match value: `*`, or a list of entity tags. Unparseable parts match nothing. */
export function parseEtagList(header: string): '*' | EntityTag[] {
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  for (const m of header.matchAll(/(W\/)?"([^"]*)"/g)) tags.push({ weak: !!m[1], tag: `"${m[2]}"` });
  return tags;
}

/** If-None-Match on GET/HEAD (weak comparison): true when the client's copy is current (→ 304). */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const tags = parseEtagList(header);
  return tags === '*' || tags.some((t) => t.tag === etag);
}

/**
 * Evaluates If-Match then If-None-Match (RFC 9110 §13.2.2) for an unsafe method against the
 * current record, throwing 412 when they do not hold. Runs inside the write transaction. When the
 * resource requires conditional writes, a request with neither header is 428 (RFC 6585 §3).
 */
export function checkPreconditions(headers: FastifyRequest['headers'], current: StoredRecord | undefined, required = false): void {
  const ifMatch = headers['if-match'];
  if (required && ifMatch === undefined && headers['if-none-match'] === undefined) {
    throw new PreconditionRequiredError(
      current ? `send If-Match with the ETag you last read (currently ${etagOf(current)}) so no one's change is lost` : 'send If-None-Match: * to create this record',
    );
  }
  if (ifMatch !== undefined) {
    const tags = parseEtagList(ifMatch);
    if (!current) throw new PreconditionFailedError('If-Match was sent but the record does not exist');
    const etag = etagOf(current);
    // If-Match uses the strong comparison: a weak tag never matches.
    if (tags !== '*' && !tags.some((t) => !t.weak && t.tag === etag)) {
      throw new PreconditionFailedError(`If-Match ${ifMatch} does not match the current ETag ${etag}: the record has changed`);
    }
  }
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined && current) {
    const tags = parseEtagList(ifNoneMatch);
    const etag = etagOf(current);
    if (tags === '*') throw new PreconditionFailedError('If-None-Match: * was sent but the record already exists');
    if (tags.some((t) => t.tag === etag)) throw new PreconditionFailedError(`If-None-Match ${ifNoneMatch} matches the current ETag`);
  }
}
