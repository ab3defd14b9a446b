import { DomainError, RecordTooLargeError } from './errors.js';
import { formatBytes, jsonSize } from './json-size.js';

/** The most operations one JSON Patch may have: each may walk or shift a large value, so their number is bounded too. */
export const MAX_PATCH_OPERATIONS = 1000;

/**
 * How many record limits' worth of bytes a patch's `copy` operations may copy in all: enough to
 * copy a value and remove the original, and still a bound on the work a patch that copies and
 * removes again and again can buy.
 */
export const COPY_FACTOR = 2;

interface Operation {
  op?: unknown;
  path?: unknown;
  from?: unknown;
  value?: unknown;
}

/** Where a JSON Pointer leads in a document: the container and member it names, and the value there (if any). */
interface Place {
  parent: unknown;
  key: string;
  value: unknown;
}

/**
 * The running size of a document under a JSON Patch, kept operation by operation so that a patch
 * that would make the document larger than `maxBytes` is stopped at the first operation that
 * crosses it, before that operation builds anything: a 3 KB patch of `copy` operations that double
 * a value each time would otherwise build hundreds of megabytes before any check saw them. Each
 * operation costs only the size of what it inserts or removes, never a walk of the whole document.
 * The bytes `copy` operations duplicate are bounded too (COPY_FACTOR), so the work a patch buys
 * is bounded even when it deletes what it copies. Sizes are those of the JSON text, exact but for a
 * separating comma here and there; the record's exact size is checked after (RecordValidator).
 */
export class PatchBudget {
  private size: number;
  private copied = 0;

  constructor(document: unknown, private readonly maxBytes: number) {
    this.size = jsonSize(document);
  }

  /** The document's size as tracked so far, in bytes of JSON. */
  get bytes(): number {
    return this.size;
  }

  /** Accounts for `operation` (number `index`) about to apply to `document`; throws when it would cross a bound. */
  charge(document: unknown, operation: Operation, index: number): void {
    const { delta, copied } = this.effectOf(document, operation);
    // A document already over the limit (the limit was lowered since) may still shrink.
    if (delta > 0 && this.size + delta > this.maxBytes) {
      throw new RecordTooLargeError(
        `${describe(operation, index)} would make the record about ${formatBytes(this.size + delta)} (${this.size + delta} bytes) as JSON, more than a record may be (server.recordLimit: ${formatBytes(this.maxBytes)}); the patch was not applied`,
        typeof operation.path === 'string' ? operation.path : '',
        { operation: index },
      );
    }
    this.copied += copied;
    if (this.copied > COPY_FACTOR * this.maxBytes) {
      throw new DomainError('patch-too-large', `${describe(operation, index)}: the patch's copy operations would copy ${formatBytes(this.copied)} (${this.copied} bytes) in all, more than ${COPY_FACTOR} times what a record may be (server.recordLimit: ${formatBytes(this.maxBytes)}); the patch was not applied: send the values themselves, or several patches`, { operation: index });
    }
    this.size += delta;
  }

  /** How much `operation` changes the document's size, and how many bytes it copies. */
  private effectOf(document: unknown, operation: Operation): { delta: number; copied: number } {
    const path = typeof operation.path === 'string' ? operation.path : undefined;
    if (path === undefined) return { delta: 0, copied: 0 };
    if (operation.op === 'copy') {
      const from = typeof operation.from === 'string' ? resolve(document, operation.from) : undefined;
      if (!from) return { delta: 0, copied: 0 };
      const bytes = jsonSize(from.value);
      return { delta: this.insertCost(document, path, bytes), copied: bytes };
    }
    return { delta: this.deltaOf(document, operation, path), copied: 0 };
  }

  private deltaOf(document: unknown, operation: Operation, path: string): number {
    switch (operation.op) {
      case 'add':
        return this.insertCost(document, path, jsonSize(operation.value));
      case 'replace': {
        if (path === '') return jsonSize(operation.value) - this.size;
        const place = resolve(document, path);
        return place ? jsonSize(operation.value) - jsonSize(place.value) : 0;
      }
      case 'remove':
        return -removalCost(document, path, true);
      case 'move': {
        // The value itself stays the same size: only its member name, and whatever it replaces, count.
        if (typeof operation.from !== 'string' || operation.from === path || !resolve(document, operation.from)) return 0;
        return this.insertCost(document, path, 0) - removalCost(document, operation.from, false);
      }
      default:
        return 0;
    }
  }

  /** What inserting a value of `bytes` at `path` adds: the value, its member name and a comma, less what it replaces. */
  private insertCost(document: unknown, path: string, bytes: number): number {
    if (path === '') return bytes - this.size;
    const place = resolve(document, path);
    if (!place) return 0;
    if (Array.isArray(place.parent)) return bytes + (place.parent.length ? 1 : 0);
    if (place.value !== undefined && Object.hasOwn(place.parent as object, place.key)) return bytes - jsonSize(place.value);
    return bytes + jsonSize(place.key) + 1 + (hasMembers(place.parent as object, 1) ? 1 : 0);
  }
}

/** What removing the value at `path` takes away: its member name and comma, and the value itself when `withValue`. */
function removalCost(document: unknown, path: string, withValue: boolean): number {
  if (path === '') return 0;
  const place = resolve(document, path);
  if (!place || place.value === undefined) return 0;
  const value = withValue ? jsonSize(place.value) : 0;
  if (Array.isArray(place.parent)) return value + (place.parent.length > 1 ? 1 : 0);
  return value + jsonSize(place.key) + 1 + (hasMembers(place.parent as object, 2) ? 1 : 0);
}

/** True when `object` has at least `count` members, counted no further than that. */
function hasMembers(object: object, count: number): boolean {
  let n = 0;
  for (const _ in object) if (++n >= count) return true;
  return false;
}

/**
 * The place a JSON Pointer names, read as fast-json-patch reads it (member lookups, array indexes
 * and `-`), or undefined when its container does not exist: the patch library then refuses the operation.
 */
function resolve(document: unknown, pointer: string): Place | undefined {
  if (pointer === '') return { parent: undefined, key: '', value: document };
  if (!pointer.startsWith('/')) return undefined;
  const keys = pointer.slice(1).split('/').map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  let node = document;
  for (let i = 0; i < keys.length - 1; i++) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[keys[i]];
  }
  if (node === null || typeof node !== 'object') return undefined;
  const key = keys[keys.length - 1];
  if (Array.isArray(node)) return { parent: node, key, value: /^\d+$/.test(key) ? node[Number(key)] : undefined };
  return { parent: node, key, value: (node as Record<string, unknown>)[key] };
}

function describe(operation: Operation, index: number): string {
  return `operation ${index + 1} (${String(operation.op)} ${String(operation.path ?? '')})`;
}
