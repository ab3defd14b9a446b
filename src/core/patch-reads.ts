/**
 * The first operation of a JSON Patch (RFC 6902) whose outcome depends on the values stored in
 * the document it applies to, described for a problem's detail; undefined when there is none.
 * `test` compares a stored value and `copy`/`move` read one (their `from`), so each is a yes/no
 * oracle on it; an operation below a top-level member needs what is there (an object member to
 * exist, an array index in range), which is one too. `add`, `replace` and `remove` of a whole
 * member (`/name`) or of the whole document depend only on the resource's fields, since a
 * record's representation has every field (null when unset).
 */
export function storedReadOf(patch: unknown): string | undefined {
  if (!Array.isArray(patch)) return undefined;
  for (const [i, operation] of patch.entries()) {
    const { op, path, from } = (operation ?? {}) as Record<string, unknown>;
    const where = `operation ${i + 1} (${String(op)} ${String(path)})`;
    if (op === 'test') return `${where} compares the value stored at ${String(path)}`;
    if (op === 'copy' || op === 'move') return `${where} reads the value stored at ${String(from)}`;
    if (typeof path === 'string' && path.split('/').length > 2) {
      return `${where} goes below the member /${path.split('/')[1]}, so whether it applies depends on what is stored there`;
    }
  }
  return undefined;
}
