/**
 * How deeply a parsed JSON value nests, measured without recursion: a hostile body of thousands
 * of nested arrays must be refused here, before any recursive code (validation, JSON.stringify,
 * patch application) could overflow the stack on it.
 *
 * Returns true when `value` nests deeper than `max` levels; a scalar is depth 0, `[]` and `{}` are 1.
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

