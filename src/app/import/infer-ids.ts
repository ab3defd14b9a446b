import type { RecordId } from '../../core/record.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What Restwell takes for an integer id in a URL (core/ids.ts): 1 to 2^53, no sign, no leading zero. */
const CANONICAL_INTEGER = /^[1-9]\d{0,15}$/;

/** The ids of one collection as Restwell keeps them, or why they cannot be kept. */
export type InferredIds = { idType: 'integer' | 'uuid'; ids: RecordId[] } | { problem: string };

/**
 * Restwell's id of each row: integers stay integers; a collection whose ids are all UUIDs becomes
 * `id: uuid` (kept in lower case, which Restwell matches case-insensitively in URLs); numeric
 * strings become integers only where json-server's loose matching (`String(id) === String(param)`)
 * already treated them as those numbers, i.e. canonical digits such as "12", never "012" or "1.0".
 * Anything else (nanoid-style strings, mixed kinds) cannot be kept, and the collection is refused.
 */
export function inferIds(rows: Array<Record<string, unknown>>): InferredIds {
  const raw = rows.map((r) => r.id);
  const allUuids = raw.length > 0 && raw.every((id) => typeof id === 'string' && UUID.test(id));
  const ids: RecordId[] = [];
  for (const [i, id] of raw.entries()) {
    if (allUuids) ids.push((id as string).toLowerCase());
    else if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 1) ids.push(id);
    else if (typeof id === 'string' && CANONICAL_INTEGER.test(id) && Number.isSafeInteger(Number(id))) ids.push(Number(id));
    else return { problem: describeBadId(id, i) };
  }
  const seen = new Set<RecordId>();
  for (const [i, id] of ids.entries()) {
    if (seen.has(id)) return { problem: `row ${i} repeats id ${JSON.stringify(raw[i])}; ids must be unique` };
    seen.add(id);
  }
  return { idType: allUuids ? 'uuid' : 'integer', ids };
}

function describeBadId(id: unknown, row: number): string {
  if (id === undefined || id === null) return `row ${row} has no id; every row needs one (json-server cannot address it either)`;
  return (
    `row ${row} has id ${JSON.stringify(id)}, which Restwell cannot keep: ids are whole numbers from 1 to 2^53 or UUIDs ` +
    '(all of one kind in a collection); give the rows such ids in the file, or leave the collection out'
  );
}
