import fastJsonPatch from 'fast-json-patch';
import { BadRequestError, ConflictError, DomainError } from './errors.js';
import { MAX_PATCH_OPERATIONS, PatchBudget } from './patch-budget.js';

const { applyOperation, validate, validator, getValueByPointer, JsonPatchError } = fastJsonPatch;

/** Error names fast-json-patch uses for operations that are well-formed but cannot apply. */
const CONFLICTS = new Set(['TEST_OPERATION_FAILED', 'OPERATION_PATH_UNRESOLVABLE', 'OPERATION_FROM_UNRESOLVABLE', 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX']);

/**
 * Applies a JSON Patch (RFC 6902) atomically: either every operation applies or the target is
 * returned unchanged through an error. A malformed document is a 400; an operation that cannot
 * apply to this state (failed `test`, missing path) is a 409. Paths through `__proto__` or
 * `constructor/prototype` are a 400 before anything applies: they can only aim at prototypes.
 * What a patch produces is bounded (see PatchBudget): more than MAX_PATCH_OPERATIONS operations,
 * or an operation that would make the document larger than `maxBytes`, is refused (413) before it applies.
 */
export function applyJsonPatch(target: unknown, patch: unknown, maxBytes = Infinity): unknown {
  if (!Array.isArray(patch)) throw new BadRequestError('invalid-patch', 'a JSON Patch document must be an array of operations');
  if (patch.length > MAX_PATCH_OPERATIONS) {
    throw new DomainError('patch-too-large', `the patch has ${patch.length} operations; at most ${MAX_PATCH_OPERATIONS} are applied in one request: send several patches`);
  }
  let doc = structuredClone(target);
  patch.forEach(refuseProtoPath);
  const budget = new PatchBudget(doc, maxBytes);
  try {
    const structural = validate(patch as any);
    if (structural) throw structural;
    for (const [index, operation] of patch.entries()) {
      budget.charge(doc, operation, index);
      doc = applyOperation(doc, operation, checkOperation(index), true, true, index).newDocument;
    }
    return doc;
  } catch (err) {
    if (!(err instanceof JsonPatchError)) throw err;
    const where = `operation ${Number(err.index ?? 0) + 1} (${(patch[err.index ?? 0] as any)?.op ?? '?'} ${(patch[err.index ?? 0] as any)?.path ?? ''})`;
    const message = `${where}: ${err.message.split('\n')[0]}`;
    if (CONFLICTS.has(err.name)) throw new ConflictError('patch-conflict', message, { operation: err.index });
    throw new BadRequestError('invalid-patch', message, { operation: err.index });
  }
}

/**
 * fast-json-patch's own check of an operation against the document, except that a `move` or `copy`
 * source is looked up in place: the library clones the whole document to look it up, which made a
 * patch of many small copies cost as many copies of the record. Errors carry the operation's index.
 */
function checkOperation(index: number) {
  return (operation: any, _: number, document: any, existingPath: string): void => {
    if ((operation.op === 'move' || operation.op === 'copy') && document !== undefined) {
      validator(operation, index);
      if (!hasValueAt(document, operation.from)) {
        throw new JsonPatchError('Cannot perform the operation from a path that does not exist', 'OPERATION_FROM_UNRESOLVABLE', index, operation, document);
      }
      return;
    }
    validator(operation, index, document, existingPath);
  };
}

/** True when the pointer names a value in the document, as fast-json-patch's own lookup decides it. */
function hasValueAt(document: unknown, pointer: string): boolean {
  try {
    return getValueByPointer(document, pointer) !== undefined;
  } catch {
    return false;
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
