import fastJsonPatch from 'fast-json-patch';
import { BadRequestError, ConflictError } from './errors.js';

const { applyPatch, validate, JsonPatchError } = fastJsonPatch;

/** Error names fast-json-patch uses for operations that are well-formed but cannot apply. */
const CONFLICTS = new Set(['TEST_OPERATION_FAILED', 'OPERATION_PATH_UNRESOLVABLE', 'OPERATION_FROM_UNRESOLVABLE', 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX']);

/**
 * Applies a JSON Patch (RFC 6902) atomically: either every operation applies or the target is
 * returned unchanged through an error. A malformed document is a 400; an operation that cannot
 * apply to this state (failed `test`, missing path) is a 409. Paths through `__proto__` or
 * `constructor/prototype` are a 400 before anything applies: they can only aim at prototypes.
 */
export function applyJsonPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new BadRequestError('invalid-patch', 'a JSON Patch document must be an array of operations');
  const doc = structuredClone(target);
  patch.forEach(refuseProtoPath);
  try {
    const structural = validate(patch as any);
    if (structural) throw structural;
    return applyPatch(doc, patch as any, true, false, true).newDocument;
  } catch (err) {
    if (!(err instanceof JsonPatchError)) throw err;
    const where = `operation ${Number(err.index ?? 0) + 1} (${(patch[err.index ?? 0] as any)?.op ?? '?'} ${(patch[err.index ?? 0] as any)?.path ?? ''})`;
    const message = `${where}: ${err.message.split('\n')[0]}`;
    if (CONFLICTS.has(err.name)) throw new ConflictError('patch-conflict', message, { operation: err.index });
    throw new BadRequestError('invalid-patch', message, { operation: err.index });
  }
}

/** fast-json-patch refuses these paths with a bare TypeError; name the operation instead. */
function refuseProtoPath(operation: unknown, index: number): void {
  for (const member of ['path', 'from'] as const) {
    const pointer = (operation as Record<string, unknown> | null)?.[member];
    if (typeof pointer !== 'string') continue;
    const segments = pointer.split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
    if (segments.some((s, i) => s === '__proto__' || (s === 'prototype' && segments[i - 1] === 'constructor'))) {
      const op = (operation as Record<string, unknown>).op;
      throw new BadRequestError('invalid-patch', `operation ${index + 1} (${String(op)} ${pointer}): ${member} goes through __proto__ or constructor/prototype, which is refused (prototype pollution)`, { operation: index });
    }
  }
}
