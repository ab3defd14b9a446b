import { isIP } from 'node:net';
import type { AccessRule, RestwellConfig } from '../config/types.js';
import type { ResourceDefinition } from '../core/resource.js';
import { scopesOf } from './access.js';

/**
 * True when `host` (a `server.host` / `--host` value) is reachable from this machine only:
 * `localhost`, 127.0.0.0/8, `::1` and IPv4-mapped 127.x. Everything else counts as exposed,
 * the wildcards `0.0.0.0` and `::` (every interface), LAN addresses and other host names included
 * (a name can resolve to anything, so it is not trusted to be local).
 */
export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(h) || /^::ffff:127\./.test(h);
  return false;
}

/** A rule in words: `public`, `owner only (any token)`, or the scopes a token must carry. */
export function describeRule(rule: AccessRule): string {
  if (rule === 'public') return 'public';
  if (rule === 'owner') return 'needs a token (own records only)';
  const scopes = scopesOf(rule);
  return `needs scope${scopes.length > 1 ? 's' : ''} ${scopes.join(' ')}`;
}

/**
 * One line of a resource's effective access (its config's rules with the defaults filled in),
 * for the start-up banner: `characters: read public · write needs scope characters:write`.
 * Create, update and delete are named apart only when their rules differ.
 */
export function describeAccess(resource: ResourceDefinition): string {
  const { read, create, update, delete: del } = resource.access;
  const same = describeRule(create) === describeRule(update) && describeRule(update) === describeRule(del);
  const writes = same ? [`write ${describeRule(create)}`] : [`create ${describeRule(create)}`, `update ${describeRule(update)}`, `delete ${describeRule(del)}`];
  return `${resource.name}: read ${describeRule(read)} · ${writes.join(' · ')}`;
}

/**
 * What anyone can change without a token: resources with an operation (create, update or delete)
 * whose rule is `public`, and inbound webhook sources with `verify: none` (a delivery is stored and
 * its actions run for whoever posts it). Reading is not counted: public reads are the default.
 */
export function openWrites(resources: Iterable<ResourceDefinition>, sources: RestwellConfig['webhooks']['sources'] = {}): string[] {
  const open: string[] = [];
  for (const r of resources) {
    const ops = (['create', 'update', 'delete'] as const).filter((op) => r.access[op] === 'public');
    if (ops.length) open.push(`${r.name} (${ops.length === 3 ? 'write' : ops.join(', ')}: public)`);
  }
  for (const [name, source] of Object.entries(sources)) if (source.verify === 'none') open.push(`webhooks.sources.${name} (verify: none)`);
  return open;
}

/**
 * The one-line warning `serve` prints when it listens beyond loopback while something can be
 * written without a token; undefined when there is nothing to warn about.
 */
export function exposureWarning(host: string, resources: Iterable<ResourceDefinition>, sources?: RestwellConfig['webhooks']['sources']): string | undefined {
  if (isLoopback(host)) return undefined;
  const open = openWrites(resources, sources);
  if (!open.length) return undefined;
  return (
    `warning: listening on ${host}, reachable beyond this machine, while anyone can write without a token: ${open.join(', ')}. ` +
    'Require scopes in `access` (and verify webhooks), or listen on loopback only: --host 127.0.0.1'
  );
}
