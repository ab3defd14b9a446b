import type { IncomingHttpHeaders } from 'node:http';
import { accessCheck, rulesFor, type AccessDecision, type ResourceOperation } from '../../auth/access.js';
import type { Principal } from '../../auth/principal.js';
import { BadRequestError, DomainError, NotFoundError } from '../../core/errors.js';
import { idShape, parseId } from '../../core/ids.js';
import type { RecordId } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { JSON_BODY_TYPES, PATCH_TYPES } from '../../http/body-types.js';
import { parsePrefer } from '../../http/prefer.js';
import { checkPostPreconditions } from '../../http/conditional.js';
import type { HttpContext } from '../../http/context.js';
import { parseMediaType } from '../../http/media-type.js';
import type { BatchOp } from '../../store/store.js';
import type { Mutation } from '../../store/store.js';
import { resolveReferences, resolveString, type Referenced } from './batch-references.js';
import { mayRead, notFound } from './record-request.js';
import { createWrite, deleteWrite, patchWrite, replaceWrite, type WriteCall } from './record-writes.js';

/** One sub-request of a batch as sent: `{ method, url, headers?, body? }`. */
export interface BatchItem {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A sub-request matched to its route: the resource, the operation and the id (or the reference standing for it). */
export interface MatchedItem extends BatchItem {
  resource: ResourceDefinition;
  kind: Extract<ResourceOperation, 'create' | 'replace' | 'patch' | 'delete'>;
  idText?: string;
}

const KINDS: Record<string, MatchedItem['kind'] | undefined> = { POST: 'create', PUT: 'replace', PATCH: 'patch', DELETE: 'delete' };

/** Reads one entry of `requests` (its shape only); a malformed one is a 400 of its own. */
export function readItem(entry: unknown): BatchItem {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new BadRequestError('malformed-body', 'each entry of requests must be an object { method, url, headers?, body? }');
  const { method, url, headers, body } = entry as Record<string, unknown>;
  if (typeof method !== 'string' || typeof url !== 'string') throw new BadRequestError('malformed-body', 'a sub-request needs a method (POST, PUT, PATCH or DELETE) and a url (/{collection} or /{collection}/{id})');
  if (headers !== undefined && (headers === null || typeof headers !== 'object' || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string'))) {
    throw new BadRequestError('malformed-body', 'a sub-request\'s headers must be an object of string values');
  }
  const lower: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries((headers ?? {}) as Record<string, string>)) lower[name.toLowerCase()] = value;
  return { method: method.toUpperCase(), url, headers: lower, body };
}

/**
 * The resource route a sub-request names: `POST /{collection}`, or PUT, PATCH or DELETE on
 * `/{collection}/{id}`, of a resource with Restwell's own routes (not a singular one, nor one
 * answering in json-server's shapes). Anything else is what it would be alone: 404, or 405.
 */
export function matchItem(item: BatchItem, resources: ReadonlyMap<string, ResourceDefinition>): MatchedItem {
  if (item.url.includes('?') || item.url.includes('#')) throw new BadRequestError('malformed-body', `a sub-request's url is a path without query: ${item.url}`);
  const m = /^\/([^/]+)(?:\/([^/]+))?\/?$/.exec(item.url);
  const resource = m ? resources.get(m[1]) : undefined;
  if (!m || !resource || resource.singular || resource.compat === 'json-server') {
    throw new NotFoundError(`no collection at ${item.url} takes writes in a batch; a batch runs POST /{collection} and PUT, PATCH and DELETE /{collection}/{id}`);
  }
  const kind = KINDS[item.method];
  if (!kind) throw new DomainError('method-not-allowed', `${item.method} cannot be batched; a batch runs POST, PUT, PATCH and DELETE`);
  const onItem = m[2] !== undefined;
  if (onItem !== (kind !== 'create')) throw new DomainError('method-not-allowed', `${item.method} ${item.url}: ${onItem ? 'a record takes PUT, PATCH and DELETE' : 'a collection takes POST'}`);
  let idText: string | undefined;
  if (onItem) {
    try {
      idText = decodeURIComponent(m[2]);
    } catch {
      throw notFound(resource, m[2]);
    }
  }
  return { ...item, resource, kind, idText };
}

/** Each (resource, operation)'s access check, worked out once, as a route's guard does. */
const checks = new WeakMap<ResourceDefinition, Map<string, (principal: Principal | undefined) => AccessDecision>>();

/**
 * The access decision of a sub-request, made as its route's guard makes it (auth/http/guard.ts),
 * with the batch request's principal: 401 without a token, 403 without the scopes, and an `owner`
 * rule's subject, whose records alone exist for it.
 */
export function itemAccess(item: MatchedItem, principal: Principal | undefined): { visibleOwner?: string } {
  let byKind = checks.get(item.resource);
  if (!byKind) checks.set(item.resource, (byKind = new Map()));
  let check = byKind.get(item.kind);
  if (!check) byKind.set(item.kind, (check = accessCheck(rulesFor(item.resource, item.kind))));
  const decision = check(principal);
  if (decision.allow) return { visibleOwner: decision.owner };
  if (decision.reason === 'unauthenticated') throw new DomainError('unauthorized', `${item.method} ${item.url} needs a bearer token: send "Authorization: Bearer <API key or access token>" with the batch`);
  throw new DomainError('forbidden', `${item.method} ${item.url} needs the scope${decision.scopes.length > 1 ? 's' : ''} ${decision.scopes.join(' ')}; the token does not have ${decision.scopes.length > 1 ? 'them all' : 'it'}`, { scope: decision.scopes.join(' ') });
}

/** A sub-request's Content-Type as its route alone would take it; a PATCH without one is a merge patch. */
function checkBodyType(item: MatchedItem): void {
  if (item.kind === 'delete') return;
  const { type } = parseMediaType(item.headers['content-type']);
  if (!type) {
    if (item.kind === 'patch') item.headers['content-type'] = PATCH_TYPES[0];
    return;
  }
  const accepted: readonly string[] = item.kind === 'patch' ? PATCH_TYPES : JSON_BODY_TYPES;
  if (!accepted.includes(type)) throw new DomainError('unsupported-media-type', `${item.method} ${item.url} takes ${accepted.join(' or ')}, not ${type}`);
}

/** The record id a sub-request names, a reference resolved; an id that cannot exist is 400 for PUT (it would create it), else 404. */
function itemId(item: MatchedItem, earlier: readonly Referenced[], index: number): RecordId {
  const errors: { pointer: string; detail: string }[] = [];
  const value = resolveString(item.idText!, earlier, index, '', errors);
  if (errors.length) throw new BadRequestError('malformed-body', `the url ${item.url}: ${errors[0].detail}`);
  const text = String(value);
  const id = parseId(item.resource, text);
  if (id !== undefined) return id;
  if (item.kind === 'replace') throw new BadRequestError('invalid-id', `"${text}" cannot be an id of ${item.resource.name}: ids are ${idShape(item.resource)}`);
  throw notFound(item.resource, text);
}

/**
 * The write of sub-request `index`, given what the earlier ones did: it gets exactly the checks
 * its route alone would make (access, Content-Type, preconditions, validation, owner rules, blind
 * writes) through the same preparation (record-writes.ts), after references are resolved.
 */
export function itemWrite(ctx: HttpContext, entry: unknown, index: number, principal: Principal | undefined, earlier: readonly Mutation[], done: readonly MatchedItem[]): { item: MatchedItem; op: BatchOp } {
  const item = matchItem(readItem(entry), ctx.resources);
  const { visibleOwner } = itemAccess(item, principal);
  checkBodyType(item);
  const referenced: Referenced[] = earlier.map((m, j) => ({ record: m.record, readable: m.record !== undefined && mayRead({ principal }, done[j].resource, m.record) }));
  const body = item.body === undefined ? undefined : resolveReferences(item.body, referenced, index);
  const lenient = item.kind !== 'delete' && parsePrefer(item.headers.prefer).handling === 'lenient';
  const call: WriteCall = { headers: item.headers, body, principal, subject: principal?.subject, visibleOwner, lenient };
  switch (item.kind) {
    case 'create':
      checkPostPreconditions(item.headers, `/${item.resource.name}`);
      return { item, op: createWrite(ctx, item.resource, call) };
    case 'replace':
      return { item, op: replaceWrite(ctx, item.resource, itemId(item, referenced, index), call) };
    case 'patch':
      return { item, op: patchWrite(ctx, item.resource, itemId(item, referenced, index), call) };
    case 'delete':
      return { item, op: deleteWrite(item.resource, itemId(item, referenced, index), call) };
  }
}
