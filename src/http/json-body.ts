import type { FastifyRequest } from 'fastify';
import { DomainError, ValidationError } from '../core/errors.js';
import { decodeUtf8, JsonTextError, parseStrictJson } from '../core/strict-json.js';
import { describeJsonHazard } from '../core/json-hazards.js';
import { parseMediaType } from './media-type.js';

// WHATWG labels of UTF-8 that clients actually send.
const UTF8_LABELS = new Set(['utf-8', 'utf8']);

/**
 * Fastify content-type parser (`parseAs: 'buffer'`) for every JSON media type the API takes.
 * Fastify's own JSON parser decodes invalid UTF-8 as U+FFFD, keeps the last of two members with
 * one name and lets `1e400` through as Infinity (stored as null); this one refuses all three, lone
 * surrogates, and any body nested deeper than `maxDepth`.
 */
export function jsonBodyParser(maxDepth: number) {
  return (request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => {
    try {
      done(null, parseJsonBody(request.headers['content-type'], body, maxDepth));
    } catch (err) {
      done(err as Error);
    }
  };
}

/**
 * Parses a JSON request body: 415 for a charset other than UTF-8 (RFC 8259 §8.1); 400
 * `malformed-json` for bytes that are not UTF-8, for JSON syntax errors, for text that is not
 * I-JSON (a repeated member name, a lone surrogate escape) and for prototype-poisoning members
 * (as Fastify's parser does), each detail naming where; 422 naming the field for numbers beyond
 * a double and for nesting deeper than `maxDepth`.
 */
export function parseJsonBody(contentType: string | undefined, body: Buffer, maxDepth: number): unknown {
  const { charset } = parseMediaType(contentType).params;
  if (charset !== undefined && !UTF8_LABELS.has(charset.toLowerCase())) {
    throw new DomainError('unsupported-media-type', `charset=${charset} is not accepted: JSON bodies are UTF-8 (RFC 8259 §8.1); send charset=utf-8 or no charset`);
  }
  if (!body.length) throw new DomainError('malformed-json', 'the body is empty but Content-Type says JSON');
  try {
    return parseStrictJson(decodeUtf8(body), maxDepth);
  } catch (err) {
    if (!(err instanceof JsonTextError)) throw err;
    const hazard = err.hazard;
    if (hazard?.kind === 'depth' || hazard?.kind === 'number') throw new ValidationError([{ pointer: hazard.pointer, detail: describeJsonHazard(hazard, maxDepth) }]);
    throw new DomainError('malformed-json', `the body ${err.message}`);
  }
}
