import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, type StoredRecord } from '../../core/record.js';
import type { ResourceDefinition } from '../../core/resource.js';
import { sendWithoutRecord } from '../../http/respond.js';
import { addVary } from '../../http/vary.js';
import { mayRead } from './record-request.js';
import { HAL_SHAPE, type RecordShape } from './record-shape.js';

/**
 * Sends the answer to a POST, PUT or PATCH: the record as it now is (200, or 201 with Location),
 * when the writer may read it; otherwise, since write access must not leak read access, 201 with
 * only the Location of a record it created, or 204 (sendWithoutRecord).
 */
export function sendWritten(request: FastifyRequest, reply: FastifyReply, resource: ResourceDefinition, record: StoredRecord, created: boolean, location?: string, shape: RecordShape = HAL_SHAPE): FastifyReply {
  // Whether the record comes back depends on who asks once reading it is not open to everyone.
  if (resource.access.read !== 'public') addVary(reply, 'Authorization');
  if (!mayRead(request, resource, record)) return sendWithoutRecord(reply, created, location);
  return shape.send(request, reply, created ? 201 : 200, shape.body(resource, record), { etag: etagOf(record), location, lastModified: record.updatedAt });
}
