import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { halRecord } from '../../http/hal.js';
import { sendRepresentation, type RepresentationHeaders } from '../../http/respond.js';
import type { Dependents } from '../../store/store.js';

/**
 * How a resource's record routes shape what they take and answer: Restwell's HAL records, or
 * another API's (json-server's, which the app passes in), over the same write path (validation,
 * preconditions, owner rules, idempotency, events).
 */
export interface RecordShape {
  /** A record as a response body. */
  body(resource: ResourceDefinition, record: StoredRecord): Record<string, unknown>;
  /** Sends a body built by `body`. */
  send(request: FastifyRequest, reply: FastifyReply, status: number, body: Record<string, unknown>, headers: RepresentationHeaders): FastifyReply;
  /** A write's JSON body as Restwell validates it. */
  input(body: unknown): unknown;
  /** The answer to a DELETE that removed a record. */
  deleted(reply: FastifyReply): FastifyReply;
  /** What a DELETE also removes: the records that depend on the deleted one (see WriteOptions.cascade). */
  dependents?(request: FastifyRequest, resources: ReadonlyMap<string, ResourceDefinition>): Dependents | undefined;
  /**
   * What a PATCH whose body is plain `application/json` makes of the record's plain representation;
   * absent where PATCH takes only the patch formats (RFC 7396, RFC 6902).
   */
  plainPatch?(current: Record<string, unknown>, body: unknown): unknown;
  /** Whether writes follow the request's `Prefer` (return, handling; see write-response.ts). */
  prefer?: boolean;
}

/** Restwell's own: HAL records, 204 for a DELETE, and answers that follow Prefer. */
export const HAL_SHAPE: RecordShape = {
  body: halRecord,
  send: sendRepresentation,
  input: (body) => body,
  deleted: (reply) => reply.code(204).send(),
  prefer: true,
};
