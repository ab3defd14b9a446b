import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, type StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { preferenceApplied, preferencesOf } from '../../http/prefer.js';
import { sendMinimal, sendWithoutRecord } from '../../http/respond.js';
import { addVary } from '../../http/vary.js';
import { mayRead } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';

/**
 * Sends the answer to a POST, PUT or PATCH: the record as it now is (200, or 201 with Location),
 * when the writer may read it; otherwise, since write access must not leak read access, 201 with
 * only the Location of a record it created, or 204 (sendWithoutRecord). A shape that follows
 * Prefer answers `return=minimal` without a body: 201 with Location, or 204, with the ETag and
 * Last-Modified the record would have come with (sendMinimal).
 */
export function sendWritten(request: FastifyRequest, reply: FastifyReply, resource: ResourceDefinition, record: StoredRecord, created: boolean, location?: string, shape: RecordShape = HAL_SHAPE): FastifyReply {
  // Whether the record comes back depends on who asks once reading it is not open to everyone.
  if (resource.access.read !== 'public') addVary(reply, 'Authorization');
  const wanted = shape.prefer ? preferencesOf(request).return : undefined;
  const readable = mayRead(request, resource, record);
  // A writer that may not read the record gets a minimal answer whatever it prefers: only minimal was applied.
  if (shape.prefer) preferenceApplied(request, reply, wanted === 'minimal' || (wanted && readable) ? `return=${wanted}` : undefined);
  if (!readable) return sendWithoutRecord(reply, created, location);
  const headers = { etag: etagOf(record), location, lastModified: record.updatedAt };
  if (wanted === 'minimal') return sendMinimal(request, reply, created ? 201 : 204, headers);
  return shape.send(request, reply, created ? 201 : 200, shape.body(resource, record), headers);
}

/**
 * Whether a write body is to be validated without its unknown members: the request's `handling`
 * preference (RFC 7240 §4.4) is `lenient`; under `strict`, the default, an unknown member is a 422.
 * Either, when asked for, is named in Preference-Applied, on the answer and on a problem alike. A
 * shape that does not follow Prefer (json-server's) is always strict.
 */
export function lenientHandling(request: FastifyRequest, reply: FastifyReply, shape: RecordShape = HAL_SHAPE): boolean {
  if (!shape.prefer) return false;
  const handling = preferencesOf(request).handling;
  preferenceApplied(request, reply, handling && `handling=${handling}`);
  return handling === 'lenient';
}
