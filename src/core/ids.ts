import { randomFillSync } from 'node:crypto';
import { V7Generator } from 'uuidv7';
import { STRING_ID, STRING_ID_RULE } from '../config/string-id.js';
import type { ResourceDefinition } from './resource.js';
import type { RecordId } from './record.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses an id from a URL path segment; `undefined` when the text cannot be an id of this
 * resource (the caller decides whether that is a 404 or a 400).
 */
export function parseId(resource: Pick<ResourceDefinition, 'idType'>, text: string): RecordId | undefined {
  if (resource.idType === 'uuid') return UUID.test(text) ? text.toLowerCase() : undefined;
  // Kept exactly: string ids are case-sensitive (json-server's nanoid ids differ only in case).
  if (resource.idType === 'string') return STRING_ID.test(text) ? text : undefined;
  if (!/^[1-9]\d{0,15}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * Random words for UUIDs, drawn from the CSPRNG 256 at a time: the library's default draws 8 at a
 * time, a native call every few ids on paths every write and every webhook delivery take.
 */
const random = {
  words: new Uint32Array(256),
  next: 256,
  nextUint32(): number {
    if (this.next === this.words.length) {
      randomFillSync(this.words);
      this.next = 0;
    }
    return this.words[this.next++]!;
  },
};
const v7 = new V7Generator(random);

/**
 * A new server-chosen id for a uuid or string resource (time-ordered UUID v7, lower-case, which fits
 * the string-id rule too); integer ids come from the store.
 */
export function newUuid(): string {
  return v7.generate().toString();
}

/** A new time-ordered UUID v7 as 32 hex digits, the body of Restwell's prefixed ids (`evt_…`, `whd_…`): inserts append to their index. */
export function newUuidHex(): string {
  return v7.generate().toHex();
}

/** Describes what an id of this resource looks like, for error messages. */
export function idShape(resource: ResourceDefinition): string {
  if (resource.idType === 'string') return `strings of ${STRING_ID_RULE} (case-sensitive)`;
  return resource.idType === 'uuid' ? 'a UUID' : 'a positive integer';
}
