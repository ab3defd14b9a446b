import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../core/errors.js';

/** One byte range of a file, both ends included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The one byte range a GET asks for (RFC 9110 §14.2), with 206 and Content-Range set on `reply`;
 * undefined when the whole file is to be sent: no Range, a Range that is not one `bytes` range
 * (several ranges, another unit, bad syntax: a server may ignore Range), or an If-Range naming
 * another version. A range starting past the end is 416 `range-not-satisfiable`.
 */
export function rangeOf(request: FastifyRequest, reply: FastifyReply, size: number, etag: string, lastModified: string): ByteRange | undefined {
  const header = request.headers.range;
  if (request.method !== 'GET' || typeof header !== 'string') return undefined;
  const ifRange = request.headers['if-range'];
  // If-Range compares strongly: the exact ETag, or the exact Last-Modified date.
  if (ifRange !== undefined && ifRange !== etag && ifRange !== lastModified) return undefined;
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    // A suffix: the last n bytes.
    const n = Number(m[2]);
    if (n === 0) return unsatisfiable(reply, size, header);
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return undefined;
  }
  if (start >= size) return unsatisfiable(reply, size, header);
  reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  return { start, end };
}

/** 416: the problem describes no version of the file, so it carries none of the file's validators. */
function unsatisfiable(reply: FastifyReply, size: number, header: string): never {
  reply.removeHeader('etag');
  reply.removeHeader('last-modified');
  reply.header('content-range', `bytes */${size}`);
  throw new DomainError('range-not-satisfiable', `Range ${header} asks for no byte of this file, which has ${size}; ask for a range starting below ${size}, or send no Range`);
}
