import type { AccessRule } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import type { EventVisibility } from '../store/event-query.js';
import type { Principal } from './principal.js';
import { ADMIN_SCOPE, grants, parseScopes } from './scopes.js';

/** Operations of a resource route, as the route table names them. */
export type ResourceOperation = 'list' | 'create' | 'read' | 'replace' | 'patch' | 'delete';

/** The outcome of an access check. */
export type AccessDecision =
  | { allow: true; /** Set for `owner` rules: the request sees only records of this subject. */ owner?: string }
  | { allow: false; reason: 'unauthenticated' }
  | { allow: false; reason: 'insufficient-scope'; scopes: string[] };

/**
 * The access rules an operation must pass. PUT may create as well as replace, so it must pass
 * both the update and the create rule.
 */
export function rulesFor(resource: ResourceDefinition, op: ResourceOperation): AccessRule[] {
  switch (op) {
    case 'list':
    case 'read':
      return [resource.access.read];
    case 'create':
      return [resource.access.create];
    case 'replace':
      return [resource.access.update, resource.access.create];
    case 'patch':
      return [resource.access.update];
    case 'delete':
      return [resource.access.delete];
  }
}

/** The scopes a rule demands (a space-separated string in the config means several). */
export function scopesOf(rule: AccessRule): string[] {
  return rule === 'public' || rule === 'owner' ? [] : parseScopes(rule);
}

const ALLOWED: AccessDecision = Object.freeze({ allow: true });
const UNAUTHENTICATED: AccessDecision = Object.freeze({ allow: false, reason: 'unauthenticated' });

/**
 * `decide` for fixed rules: what they demand is worked out once, so a route's guard, which runs
 * it on every request, only checks the principal against it.
 */
export function accessCheck(rules: AccessRule[]): (principal: Principal | undefined) => AccessDecision {
  if (rules.every((r) => r === 'public')) return () => ALLOWED;
  const needed = [...new Set(rules.flatMap(scopesOf))];
  const byOwner = rules.includes('owner');
  return (principal) => {
    if (!principal) return UNAUTHENTICATED;
    if (!grants(principal.scopes, needed)) return { allow: false, reason: 'insufficient-scope', scopes: [...needed] };
    const owner = byOwner && !principal.scopes.has(ADMIN_SCOPE) ? principal.subject : undefined;
    return owner ? { allow: true, owner } : ALLOWED;
  };
}

/** Decides whether `principal` (undefined when anonymous) passes every rule. */
export function decide(rules: AccessRule[], principal: Principal | undefined): AccessDecision {
  return accessCheck(rules)(principal);
}

/**
 * What `principal` may read of `resource`: every record (`true`), none (`false`), or only the
 * records this subject owns (its `owner` read rule). A write answers with the record only when
 * its writer may read it, so write access never leaks read access.
 */
export function readView(resource: ResourceDefinition, principal: Principal | undefined): boolean | string {
  let check = readChecks.get(resource);
  if (!check) readChecks.set(resource, (check = accessCheck(rulesFor(resource, 'read'))));
  const decision = check(principal);
  return decision.allow ? (decision.owner ?? true) : false;
}

/** Each resource's read check, worked out once: every write asks it. */
const readChecks = new WeakMap<ResourceDefinition, (principal: Principal | undefined) => AccessDecision>();

/**
 * True when someone who passes the rules of `op` may still be unable to read the record it
 * writes, so the write's answer may come without the record (the OpenAPI document says so only
 * where it can happen). Under an `owner` read rule that is a record another subject owns, or one
 * written anonymously; under scopes, a writer lacking a scope the read rule needs.
 */
export function writeMayHideRecord(resource: ResourceDefinition, op: 'create' | 'replace' | 'patch' | 'delete'): boolean {
  const read = resource.access.read;
  if (read === 'public') return false;
  const rules = rulesFor(resource, op);
  if (rules.every((r) => r === 'public')) return true;
  // Scopes the writer certainly holds: those the write rules demand (admins pass every rule).
  const held = new Set(rules.flatMap(scopesOf));
  if (read !== 'owner') return !scopesOf(read).every((s) => held.has(s));
  // Own records only: a POST's record is the writer's; a PUT or PATCH reaches others' records unless its rule is `owner` too.
  return op !== 'create' && !rules.includes('owner');
}

/**
 * The part of the event log `principal` may read. An event carries a record's representation, so
 * it is shown only to whoever could read that record: its resource's read rule applies, owner
 * rules included. Admins see everything (undefined); events of anything that is no configured
 * resource (webhook inboxes, removed resources) are theirs alone.
 */
export function eventVisibility(resources: Iterable<ResourceDefinition>, principal: Principal | undefined): EventVisibility | undefined {
  if (principal?.scopes.has(ADMIN_SCOPE)) return undefined;
  const visible: string[] = [];
  const owned: string[] = [];
  for (const resource of resources) {
    const decision = decide(rulesFor(resource, 'read'), principal);
    if (decision.allow) (decision.owner === undefined ? visible : owned).push(resource.name);
  }
  return { resources: visible, ...(owned.length && principal ? { owned: { owner: principal.subject, resources: owned } } : {}) };
}
