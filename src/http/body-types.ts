import type { FastifyReply } from 'fastify';

/** The patch formats PATCH takes: JSON Merge Patch (RFC 7396) and JSON Patch (RFC 6902). */
export const PATCH_TYPES = ['application/merge-patch+json', 'application/json-patch+json'] as const;

/** The body types POST and PUT take on JSON routes. */
export const JSON_BODY_TYPES = ['application/json', 'application/hal+json'] as const;

/** The body types a method takes on a JSON route. */
export function bodyTypesFor(method: string): readonly string[] {
  return method === 'PATCH' ? PATCH_TYPES : JSON_BODY_TYPES;
}

/**
 * Tells the client of a 415 which body types the method takes (RFC 9110 §15.5.16), each in the
 * header made for it: PATCH in Accept-Patch (RFC 5789 §3.1), POST in Accept-Post (W3C LDP §7.1),
 * and PUT, which has no header of its own, in Accept (RFC 9110 §12.5.1). Returns the types
 * (`types`, where a route takes others than its method's).
 */
export function advertiseBodyTypes(reply: FastifyReply, method: string, types: readonly string[] = bodyTypesFor(method)): readonly string[] {
  const header = method === 'PATCH' ? 'accept-patch' : method === 'POST' ? 'accept-post' : method === 'PUT' ? 'accept' : undefined;
  if (header) reply.header(header, types.join(', '));
  return types;
}
