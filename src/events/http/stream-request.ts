import type { FastifyRequest } from 'fastify';
import { BadRequestError } from '../../core/errors.js';
import { parseMediaType } from '../../http/media-type.js';
import { isSelectionParam } from './event-selection.js';

/** What a `GET /events/stream` request asks for. */
export interface StreamRequest {
  /** Only events of these types (none: every type), as `type=` of `GET /events`. */
  types: string[];
  /** The id of the last event the client has, when it resumes. */
  lastEventId?: string;
}

/**
 * Reads `type` and the resume point (the selection, `resource`, `recordId` and `filter[…]`, is read by parseEventSelection). The Last-Event-ID header wins over `?lastEventId=`: an
 * EventSource opened with the parameter keeps that URL on every reconnect but sends the header
 * with the newest id it saw, so the header is the fresher of the two. An empty value means none.
 */
export function parseStreamRequest(request: FastifyRequest): StreamRequest {
  const query = request.query as Record<string, unknown>;
  for (const k of Object.keys(query)) {
    if (k !== 'type' && k !== 'lastEventId' && !isSelectionParam(k)) throw new BadRequestError('invalid-query', `unknown query parameter "${k}"; use type, resource, recordId, filter[field][op], lastEventId`);
  }
  const types = [query.type ?? []].flat().join(',').split(',').filter(Boolean);
  const header = request.headers['last-event-id'];
  const fromQuery = [query.lastEventId ?? []].flat().at(-1);
  const lastEventId = (typeof header === 'string' && header.trim()) || (typeof fromQuery === 'string' && fromQuery.trim()) || undefined;
  return { types, ...(lastEventId ? { lastEventId } : {}) };
}

/** True unless Accept names media ranges of which none covers text/event-stream (no Accept takes anything). */
export function acceptsEventStream(accept: string | undefined): boolean {
  if (!accept?.trim()) return true;
  return accept.split(',').some((part) => {
    const { type, params } = parseMediaType(part);
    const q = params.q === undefined ? 1 : Number(params.q);
    return q > 0 && (type === 'text/event-stream' || type === 'text/*' || type === '*/*');
  });
}
