import type { FastifyRequest } from 'fastify';
import { DomainError, ValidationError } from '../core/errors.js';
import { describeJsonHazard, findJsonHazard } from '../core/json-hazards.js';
import { parseMediaType } from './media-type.js';

// fatal: a byte sequence that is not UTF-8 is an error, never silently U+FFFD. A leading BOM is dropped.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
// WHATWG labels of UTF-8 that clients actually send.
const UTF8_LABELS = new Set(['utf-8', 'utf8']);

/**
 * Fastify content-type parser (`parseAs: 'buffer'`) for every JSON media type the API takes.
 * Fastify's own JSON parser decodes invalid UTF-8 as U+FFFD and lets `1e400` through as Infinity
 * (stored as null); this one refuses both, and any body nested deeper than `maxDepth`.
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
 * Parses a JSON request body: 415 for a charset other than UTF-8 (RFC 8259 §8.1), 400 for bytes
 * that are not UTF-8, for JSON syntax errors and for prototype-poisoning members (as Fastify's
 * parser does), 422 naming the field for numbers beyond a double and for nesting deeper than `maxDepth`.
 */
export function parseJsonBody(contentType: string | undefined, body: Buffer, maxDepth: number): unknown {
  const { charset } = parseMediaType(contentType).params;
  if (charset !== undefined && !UTF8_LABELS.has(charset.toLowerCase())) {
    throw new DomainError('unsupported-media-type', `charset=${charset} is not accepted: JSON bodies are UTF-8 (RFC 8259 §8.1); send charset=utf-8 or no charset`);
  }
  if (!body.length) throw new DomainError('malformed-json', 'the body is empty but Content-Type says JSON');
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new DomainError('malformed-json', 'the body is not valid UTF-8; JSON bodies must be UTF-8 (RFC 8259 §8.1)');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DomainError('malformed-json', `the body is not valid JSON: ${(err as Error).message}`);
  }
  const hazard = findJsonHazard(value, maxDepth);
  if (!hazard) return value;
  const detail = describeJsonHazard(hazard, maxDepth);
  if (hazard.kind === 'prototype-key') throw new DomainError('malformed-json', `the member at ${hazard.pointer} ${detail}`);
  throw new ValidationError([{ pointer: hazard.pointer, detail }]);
}
