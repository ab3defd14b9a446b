import type { FastifyRequest } from 'fastify';
import { PreconditionFailedError, PreconditionRequiredError } from '../core/errors.js';
import { etagOf, type StoredRecord } from '../core/record.js';
import { httpSeconds, parseHttpDate } from './http-date.js';
import { mediaType, negotiate, REPRESENTATIONS, type Representation } from './negotiate.js';

type Headers = FastifyRequest['headers'];

interface EntityTag {
  weak: boolean;
  tag: string;
}

/**
 * The strong ETag of one representation of a record. JSON, HAL and HTML differ in media type
 * (and HTML in bytes), so each has a tag of its own (RFC 9110 §8.8.3): JSON carries the record's
 * tag, HAL and HTML the same tag with a suffix. All three change together on every write.
 */
export function representationEtag(etag: string, rep: Representation): string {
  return rep === 'json' ? etag : etag.replace(/"$/, `.${rep}"`);
}

/** Parses an If-Match / If-None-Match value: `*`, or a list of entity tags. Unparseable parts match nothing. */
export function parseEtagList(header: string): '*' | EntityTag[] {
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  for (const m of header.matchAll(/(W\/)?"([^"]*)"/g)) tags.push({ weak: !!m[1], tag: `"${m[2]}"` });
  return tags;
}

/** If-None-Match on GET/HEAD of a fixed body (weak comparison): true when the client's copy is current (→ 304). */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  return header !== undefined && matchesWeakly(header, etag);
}

/**
 * The status of a GET or HEAD of a record after its preconditions (RFC 9110 §13.2.2): 412 (thrown)
 * when If-Match, or else If-Unmodified-Since, fails; 304 when If-None-Match, or else
 * If-Modified-Since, says the client's copy is current; else 200. Entity tags are compared with
 * the ETag of the representation the request's Accept selects; dates at one-second resolution.
 */
export function readStatus(request: FastifyRequest, record: StoredRecord): 200 | 304 {
  const { headers } = request;
  const rep = negotiate(request);
  checkUnchanged(headers, record, rep);
  const etag = representationEtag(etagOf(record), rep);
  if (headers['if-none-match'] !== undefined) return matchesWeakly(headers['if-none-match'], etag) ? 304 : 200;
  const since = parseHttpDate(headers['if-modified-since']);
  return since !== undefined && httpSeconds(record.updatedAt) <= since ? 304 : 200;
}

/**
 * The preconditions of PUT, PATCH and DELETE (RFC 9110 §13.2.2) against the current record,
 * throwing 412 when they do not hold: If-Match, else If-Unmodified-Since; then If-None-Match.
 * Runs inside the write transaction, so nothing can change between the check and the write.
 *
 * If-Match compares with the selected representation (RFC 9110 §13.1.1), the one this request's
 * Accept selects, as for the response it gets: a client that read HAL and writes with
 * `Accept: application/hal+json` sends the HAL ETag it holds. A tag of another current
 * representation is still 412 (the letter of the RFC), with a detail that says which to send.
 *
 * When the resource requires conditional writes, a write without a real precondition is 428
 * (RFC 6585 §3): If-Match with an entity tag, or If-None-Match: * to create. `If-Match: *` only
 * asks that the record exist, so it protects no one's change and does not count.
 */
export function checkPreconditions(headers: Headers, current: StoredRecord | undefined, required = false): void {
  const rep = negotiate({ headers });
  if (required) requirePrecondition(headers, current, rep);
  checkUnchanged(headers, current, rep);
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch === undefined || !current) return;
  if (parseEtagList(ifNoneMatch) === '*') throw new PreconditionFailedError('If-None-Match: * was sent but the record already exists');
  if (matchesWeakly(ifNoneMatch, representationEtag(etagOf(current), rep))) throw new PreconditionFailedError(`If-None-Match ${ifNoneMatch} matches the current ETag`);
}

/**
 * The preconditions of a POST (RFC 9110 §13.1), whose target is the collection it posts to, not the
 * record it may create. A collection always has a current representation (its list) but no entity
 * tag and no modification date: every write to any of its records changes its pages. So:
 * `If-Match: *` holds (the collection exists) and `If-Match` with entity tags cannot (412);
 * `If-None-Match: *` fails, since the collection exists (412: "create only if absent" is a PUT with
 * `If-None-Match: *` to the record's own URL); `If-None-Match` with tags holds, no tag matching; the
 * date conditions are ignored (§13.1.3-4: no modification date). Throws 412 when one fails.
 */
export function checkPostPreconditions(headers: Headers, target: string): void {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined && parseEtagList(ifMatch) !== '*') {
    throw new PreconditionFailedError(`If-Match ${ifMatch} cannot match: POST's target is the collection ${target}, which has no ETag (its pages change with every write); send If-Match to a record's URL`);
  }
  if (headers['if-none-match'] !== undefined && parseEtagList(headers['if-none-match']) === '*') {
    throw new PreconditionFailedError(`If-None-Match: * asks that the target not exist, but POST's target is the collection ${target}, which does; to create a record only if its id is free, PUT it to its URL with If-None-Match: *`);
  }
}

/** Steps 1 and 2 of RFC 9110 §13.2.2: If-Match (strong comparison), else If-Unmodified-Since. */
function checkUnchanged(headers: Headers, current: StoredRecord | undefined, rep: Representation): void {
  const ifMatch = headers['if-match'];
  if (ifMatch !== undefined) {
    if (!current) throw new PreconditionFailedError('If-Match was sent but the record does not exist');
    const tags = parseEtagList(ifMatch);
    if (matchesStrongly(tags, representationEtag(etagOf(current), rep))) return;
    throw new PreconditionFailedError(mismatch(ifMatch, tags, current, rep));
  }
  // A record that does not exist has no modification date, so the header is ignored (§13.1.4).
  const since = parseHttpDate(headers['if-unmodified-since']);
  if (since !== undefined && current && httpSeconds(current.updatedAt) > since) {
    throw new PreconditionFailedError(`the record was modified at ${new Date(current.updatedAt).toUTCString()}, after If-Unmodified-Since ${headers['if-unmodified-since']}`);
  }
}

function requirePrecondition(headers: Headers, current: StoredRecord | undefined, rep: Representation): void {
  const ifMatch = headers['if-match'] === undefined ? [] : parseEtagList(headers['if-match']);
  if ((ifMatch !== '*' && ifMatch.length > 0) || (headers['if-none-match'] !== undefined && parseEtagList(headers['if-none-match']) === '*')) return;
  if (!current) throw new PreconditionRequiredError('send If-None-Match: * to create this record');
  const star = ifMatch === '*' ? 'If-Match: * only asks that the record exist; ' : '';
  throw new PreconditionRequiredError(`${star}send If-Match with the ETag you last read (currently ${representationEtag(etagOf(current), rep)}) so no one's change is lost`);
}

/** The 412 detail for an If-Match that fails, naming the representation when the tag is another one's. */
function mismatch(ifMatch: string, tags: '*' | EntityTag[], current: StoredRecord, rep: Representation): string {
  const etag = representationEtag(etagOf(current), rep);
  const other = REPRESENTATIONS.find((r) => r !== rep && matchesStrongly(tags, representationEtag(etagOf(current), r)));
  if (!other) return `If-Match ${ifMatch} does not match the current ETag ${etag}: the record has changed`;
  return `If-Match ${ifMatch} is the current ETag of the ${mediaType(other)} representation, but this request selects ${mediaType(rep)} (by its Accept header), whose ETag is ${etag}: send that ETag, or Accept: ${mediaType(other)}`;
}

/**
 * The status of a GET or HEAD of a representation whose only validator is its ETag (it has no
 * Last-Modified, so If-Modified-Since and If-Unmodified-Since are ignored, RFC 9110 §13.1.3-4):
 * 412 (thrown, its detail ending with `changed`) when If-Match names another tag, 304 when
 * If-None-Match names it, else 200. `etag` is the JSON representation's; each one has its own.
 */
export function etagOnlyStatus(request: FastifyRequest, etag: string, changed: string): 200 | 304 {
  const tag = representationEtag(etag, negotiate(request));
  const { 'if-match': ifMatch, 'if-none-match': ifNoneMatch } = request.headers;
  if (ifMatch !== undefined && !matchesStrongly(parseEtagList(ifMatch), tag)) throw new PreconditionFailedError(`If-Match ${ifMatch} does not match the current ETag ${tag} of this ${changed}`);
  return ifNoneMatch !== undefined && matchesWeakly(ifNoneMatch, tag) ? 304 : 200;
}

/** The strong comparison of If-Match (RFC 9110 §8.8.3.2): `*` or a strong tag with the same value. */
function matchesStrongly(tags: '*' | EntityTag[], etag: string): boolean {
  return tags === '*' || tags.some((t) => !t.weak && t.tag === etag);
}

/** The weak comparison of If-None-Match (RFC 9110 §8.8.3.2): `*` or any tag with the same opaque value. */
function matchesWeakly(header: string, etag: string): boolean {
  const tags = parseEtagList(header);
  return tags === '*' || tags.some((t) => t.tag === etag);
}
