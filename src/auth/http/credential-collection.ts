import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../core/errors.js';
import { sendRepresentation } from '../../http/respond.js';
import type { AuthContext } from './auth-context.js';
import { parseCredentialInput, type CredentialInput } from './credential-input.js';
import { scopeCatalog, unknownScopeMessage, unknownScopes } from '../scope-catalog.js';

/** What an admin-only collection of credentials (API keys, OAuth clients) is made of. */
export interface CredentialCollection<Info> {
  /** The collection's path, e.g. `/api-keys`. */
  path: string;
  /** What one member is called in messages, e.g. `API key`. */
  noun: string;
  /** The `_embedded` key of the list. */
  rel: string;
  /** Whether `expiresIn` may be given on create. */
  allowExpiry: boolean;
  id(info: Info): string;
  /** The HAL representation of a member, never its secret. */
  hal(info: Info): Record<string, unknown>;
  create(ctx: AuthContext, input: CredentialInput): Promise<{ info: Info; secret: Record<string, string> }>;
  list(ctx: AuthContext): Promise<Info[]>;
  get(ctx: AuthContext, id: string): Promise<Info | undefined>;
  /** Removes the member; false when there was none. */
  remove(ctx: AuthContext, id: string): Promise<boolean>;
}

/**
 * The four handlers of a credential collection: create (201 whose body carries the secret, the
 * only time it is shown, never cached), list and read (never a secret), delete (the credential
 * stops working at once on this node, on others within the token cache's TTL; the event streams it
 * holds open end at once here, on other nodes at their next credential check).
 */
export function credentialHandlers<Info>(c: CredentialCollection<Info>) {
  const found = async (ctx: AuthContext, request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    const info = await c.get(ctx, id);
    if (!info) throw new NotFoundError(`no ${c.noun} has id ${id}`);
    return info;
  };
  return {
    create: (ctx: AuthContext) => {
      const catalog = scopeCatalog(ctx.resources.values(), ctx.config);
      return async (request: FastifyRequest, reply: FastifyReply) => {
        const input = parseCredentialInput(request.body, c.allowExpiry);
        const { info, secret } = await c.create(ctx, input);
        // A scope nothing checks is kept (a config may start using it later) but said, never refused.
        const warnings = unknownScopes(input.scopes, catalog).map(unknownScopeMessage);
        reply.header('cache-control', 'no-store');
        return sendRepresentation(request, reply, 201, { ...c.hal(info), ...secret, ...(warnings.length ? { warnings } : {}) }, { location: `${c.path}/${c.id(info)}` });
      };
    },
    list: (ctx: AuthContext) => async (request: FastifyRequest, reply: FastifyReply) => {
      const all = await c.list(ctx);
      return sendRepresentation(request, reply, 200, { _links: { self: { href: c.path } }, count: all.length, _embedded: { [c.rel]: all.map(c.hal) } });
    },
    read: (ctx: AuthContext) => async (request: FastifyRequest, reply: FastifyReply) => sendRepresentation(request, reply, 200, c.hal(await found(ctx, request))),
    remove: (ctx: AuthContext) => async (request: FastifyRequest, reply: FastifyReply) => {
      const { id } = request.params as { id: string };
      if (!(await c.remove(ctx, id))) throw new NotFoundError(`no ${c.noun} has id ${id}`);
      ctx.auth.revocations.revoked();
      return reply.code(204).send();
    },
  };
}
