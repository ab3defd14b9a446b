import type { RestwellConfig } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import { scopesOf } from './access.js';
import { ADMIN_SCOPE } from './scopes.js';

/** Which part of the API a scope opens, so a form can group its checkboxes. */
export type ScopeGroup = 'resource' | 'events' | 'webhooks' | 'metrics' | 'admin';

/** One scope something on this server checks, with what holding it lets a token do. */
export interface ScopeEntry {
  scope: string;
  group: ScopeGroup;
  description: string;
  /** For resource scopes: the collections whose access rules name it. */
  resources?: string[];
}

/** The scope of the event log's routes. */
export const EVENTS_SCOPE = 'events:read';
/** The scopes of the outbound webhook routes. */
export const WEBHOOK_SCOPES = { read: 'webhooks:read', write: 'webhooks:write', own: 'webhooks:own' } as const;
/** The scope of `/metrics` under `server.metrics: token`. */
export const METRICS_READ_SCOPE = 'metrics:read';

const OPERATION_WORDS = { read: 'read', create: 'create', update: 'update', delete: 'delete' } as const;

/**
 * Every scope this server checks: the scopes the resources' access rules name (in the config's
 * order), then the fixed ones of the event log, outbound webhooks, metrics (when a token guards
 * them) and the admin scope `*`. A scope outside it grants nothing, which is what the CLI and the
 * API warn about.
 */
export function scopeCatalog(resources: Iterable<ResourceDefinition>, config?: Pick<RestwellConfig, 'server'>): ScopeEntry[] {
  const uses = new Map<string, Map<string, Set<string>>>();
  for (const r of resources) {
    for (const [op, rule] of Object.entries(r.access) as [keyof typeof OPERATION_WORDS, ResourceDefinition['access']['read']][]) {
      for (const scope of scopesOf(rule)) {
        const byResource = uses.get(scope) ?? new Map<string, Set<string>>();
        uses.set(scope, byResource);
        const ops = byResource.get(r.name) ?? new Set<string>();
        byResource.set(r.name, ops);
        ops.add(OPERATION_WORDS[op]);
      }
    }
  }
  const catalog: ScopeEntry[] = [...uses].map(([scope, byResource]) => ({
    scope,
    group: 'resource',
    resources: [...byResource.keys()],
    description: [...byResource].map(([name, ops]) => `${[...ops].join(', ')} ${name}`).join('; '),
  }));
  const fixed: ScopeEntry[] = [
    { scope: EVENTS_SCOPE, group: 'events', description: 'read the event log (/events and its live stream), limited to the records the token may read' },
    { scope: WEBHOOK_SCOPES.read, group: 'webhooks', description: 'read outbound webhook endpoints, their deliveries and attempts' },
    { scope: WEBHOOK_SCOPES.write, group: 'webhooks', description: 'create, change and delete outbound webhook endpoints; rotate secrets, redeliver, replay' },
    { scope: WEBHOOK_SCOPES.own, group: 'webhooks', description: 'create and manage your own outbound webhook endpoints and read their deliveries; they receive only the events you may read' },
    ...((config?.server.metrics ?? 'token') === 'token' ? [{ scope: METRICS_READ_SCOPE, group: 'metrics' as const, description: 'scrape the Prometheus metrics (/metrics)' }] : []),
    { scope: ADMIN_SCOPE, group: 'admin', description: 'admin: everything, including API keys, OAuth clients and webhook inboxes' },
  ];
  for (const entry of fixed) if (!uses.has(entry.scope)) catalog.push(entry);
  return catalog;
}

/** A requested scope nothing on this server checks, with the known scope it most likely meant. */
export interface UnknownScope {
  scope: string;
  suggestion?: string;
}

/**
 * The scopes of `requested` that no entry of `catalog` is, each with the closest known scope when
 * one is a small typo away (a few edits, fewer than a third of its length).
 */
export function unknownScopes(requested: readonly string[], catalog: readonly ScopeEntry[]): UnknownScope[] {
  const known = catalog.map((e) => e.scope);
  return requested
    .filter((s) => !known.includes(s))
    .map((scope) => {
      let best: { scope: string; distance: number } | undefined;
      for (const k of known) {
        if (k === ADMIN_SCOPE) continue;
        const distance = editDistance(scope.toLowerCase(), k.toLowerCase());
        if (!best || distance < best.distance) best = { scope: k, distance };
      }
      const close = best && best.distance <= Math.max(1, Math.min(3, Math.floor(scope.length / 3)));
      return close ? { scope, suggestion: best!.scope } : { scope };
    });
}

/** One sentence about an unknown scope, for CLI warnings and API hints. */
export function unknownScopeMessage(u: UnknownScope): string {
  return `scope "${u.scope}" is not used by this server's config or routes, so it grants nothing${u.suggestion ? `; did you mean ${u.suggestion}?` : ''}`;
}

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from a to b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
