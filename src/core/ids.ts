import { uuidv7 } from 'uuidv7';
import type { ResourceDefinition } from './resource.js';
import type { RecordId } from './record.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses an id from a URL path segment; `undefined` when the text cannot be an id of this
 * resource (the caller decides whether that is a 404 or a 400).
 */
export function parseId(resource: ResourceDefinition, text: string): RecordId | undefined {
  if (resource.idType === 'uuid') return UUID.test(text) ? text.toLowerCase() : undefined;
  if (!/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A new server-chosen id for a uuid resource (time-ordered UUID v7); integer ids come from the store. */
export function newUuid(): string {
  return uuidv7();
}

/** Describes what an id of this resource looks like, for error messages. */
export function idShape(resource: ResourceDefinition): string {
  return resource.idType === 'uuid' ? 'a UUID' : 'a positive integer';
}
