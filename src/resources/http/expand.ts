import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, BadRequestError } from '../../core/errors.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { decide, rulesFor, scopesOf } from '../../auth/access.js';
import { addVary } from '../../http/vary.js';

/** How deep an expansion path may go (`a.b.c`). */
export const MAX_EXPAND_DEPTH = 3;
/** How many expansion paths one request may ask for. */
export const MAX_EXPAND_PATHS = 10;
/** How many referencing records a reverse expansion embeds per record (the first by id). */
export const REVERSE_EXPAND_LIMIT = 10;

/**
 * One expansion of a record: `forward` follows a reference field of the record to its target;
 * `reverse` embeds the records of `target` whose reference field `field` points at it.
 */
export interface ExpandNode {
  /** The name in `expand=` and in `_embedded`. */
  name: string;
  /** The path from the expanded resource, as the client wrote it (`author.company`). */
  path: string;
  kind: 'forward' | 'reverse';
  /** The resource embedded. */
  target: ResourceDefinition;
  /** forward: the reference field of the parent; reverse: the reference field of `target`. */
  field: string;
  /** Set when the target's read rule is `owner`: only this subject's records are embedded. */
  owner?: string;
  children: ExpandNode[];
}

/**
 * The names a record of `resource` can expand: each reference field (forward), and for each
 * reference to it from a resource C's field f, `C:f` and, when f is C's only reference to it, `C`
 * (reverse). A reference field wins over a reverse name it shares (the other stays `C:f`).
 */
export function expansionsOf(resource: ResourceDefinition, resources: ReadonlyMap<string, ResourceDefinition>): Map<string, Omit<ExpandNode, 'path' | 'children' | 'owner'>> {
  const out = new Map<string, Omit<ExpandNode, 'path' | 'children' | 'owner'>>();
  for (const f of resource.fields) {
    const target = f.type === 'reference' ? resources.get(f.to!) : undefined;
    if (target) out.set(f.name, { name: f.name, kind: 'forward', target, field: f.name });
  }
  for (const other of resources.values()) {
    const refs = other.fields.filter((f) => f.type === 'reference' && f.to === resource.name);
    if (refs.length === 1 && !out.has(other.name)) out.set(other.name, { name: other.name, kind: 'reverse', target: other, field: refs[0].name });
    for (const f of refs) out.set(`${other.name}:${f.name}`, { name: `${other.name}:${f.name}`, kind: 'reverse', target: other, field: f.name });
  }
  return out;
}

/**
 * Parses `expand=a.b,c` (the parameter may repeat) into a tree of expansions, checked against the
 * resources and against what the caller may read. Unknown names, paths deeper than
 * MAX_EXPAND_DEPTH or more than MAX_EXPAND_PATHS paths are 400 (naming them, and the valid names);
 * an expansion into a resource the caller may not read is 403 (`expand-forbidden`), never a
 * silently empty embed, so what is hidden and what is absent never look alike.
 */
export function parseExpand(resource: ResourceDefinition, values: string[], resources: ReadonlyMap<string, ResourceDefinition>, request: FastifyRequest): ExpandNode[] {
  const paths = [...new Set(values.flatMap((v) => v.split(',')).map((p) => p.trim()).filter(Boolean))];
  if (paths.length > MAX_EXPAND_PATHS) throw bad(`expand: at most ${MAX_EXPAND_PATHS} paths may be expanded at once (${paths.length} were asked for)`);
  const roots: ExpandNode[] = [];
  for (const path of paths) {
    const names = path.split('.');
    if (names.length > MAX_EXPAND_DEPTH) throw bad(`expand: "${clip(path)}" is ${names.length} levels deep; at most ${MAX_EXPAND_DEPTH} are expanded`);
    let parent = resource;
    let level = roots;
    names.forEach((name, i) => {
      const at = names.slice(0, i + 1).join('.');
      let node = level.find((n) => n.name === name);
      if (!node) {
        const known = expansionsOf(parent, resources);
        const found = known.get(name);
        if (!found) {
          const valid = [...known.keys()];
          throw bad(`expand: ${parent.name} has no reference or reverse reference "${clip(name)}"${i ? ` (in "${clip(path)}")` : ''}; ${valid.length ? `it can expand: ${valid.join(', ')}` : 'it has none to expand'}`);
        }
        node = { ...found, path: at, children: [], ...readableBy(found.target, at, request) };
        level.push(node);
      }
      parent = node.target;
      level = node.children;
    });
  }
  return roots;
}

/** The owner restriction for embedding `target`, or a 403 naming the expansion when the caller may not read it. */
function readableBy(target: ResourceDefinition, path: string, request: FastifyRequest): { owner?: string } {
  const decision = decide(rulesFor(target, 'read'), request.principal);
  if (decision.allow) return decision.owner === undefined ? {} : { owner: decision.owner };
  const scopes = scopesOf(target.access.read);
  const scope = scopes.length ? `the scope ${scopes.join(' ')}` : '';
  const needs = decision.reason === 'unauthenticated' ? `a bearer token${scope && ` with ${scope}`}` : scope;
  throw new DomainError('expand-forbidden', `expand=${path}: reading ${target.name} needs ${needs}, which this request does not have; drop that expansion or send a token that has it`);
}

/** True when any expansion's answer depends on who asks (a read rule other than public). */
function expandVaries(nodes: ExpandNode[]): boolean {
  return nodes.some((n) => n.target.access.read !== 'public' || expandVaries(n.children));
}

/** Adds `Vary: Authorization` when who asks changes what the expansions embed. */
export function varyForExpand(reply: FastifyReply, nodes: ExpandNode[]): void {
  if (expandVaries(nodes)) addVary(reply, 'Authorization');
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function bad(message: string): BadRequestError {
  return new BadRequestError('invalid-query', message);
}
