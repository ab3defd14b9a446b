import { STRING_ID_RULE } from '../../config/string-id.js';
import type { IdType } from '../../config/types.js';
import { parseId } from '../../core/ids.js';
import type { RecordId } from '../../core/record.js';

/** A file's id as an id of this type would be read from a URL (core/ids.ts), or undefined. */
const asId = (idType: IdType, id: unknown) => (typeof id === 'string' ? parseId({ idType }, id) : undefined);

/** The ids of one collection as Restwell keeps them, or why they cannot be kept. */
export type InferredIds = { idType: IdType; ids: RecordId[] } | { problem: string };

/**
 * Restwell's id of each row: integers stay integers; a collection whose ids are all UUIDs becomes
 * `id: uuid` (kept in lower case, which Restwell matches case-insensitively in URLs); numeric
 * strings become integers only where json-server's loose matching (`String(id) === String(param)`)
 * already treated them as those numbers, i.e. canonical digits such as "12", never "012" or "1.0".
 * A collection whose ids are all strings, but neither all UUIDs nor all canonical integers (json-server
 * 0.17's nanoid ids such as "Jz5f9_a", 1.x's hex ids such as "a3f1"), becomes `id: string` and keeps
 * every id exactly (case included), if each fits the string-id rule (config/string-id.ts). Anything
 * else (ids that break that rule, numbers mixed with such strings) cannot be kept, and the collection
 * is refused with the first row that breaks it.
 */
export function inferIds(rows: Array<Record<string, unknown>>): InferredIds {
  const raw = rows.map((r) => r.id);
  const allUuids = raw.length > 0 && raw.every((id) => asId('uuid', id) !== undefined);
  const strings = !allUuids && raw.length > 0 && raw.every((id) => typeof id === 'string') && !raw.every((id) => asId('integer', id) !== undefined);
  const ids: RecordId[] = [];
  for (const [i, id] of raw.entries()) {
    const kept = strings || allUuids ? asId(strings ? 'string' : 'uuid', id) : typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 ? id : asId('integer', id);
    if (kept === undefined) return { problem: strings ? describeBadString(id as string, i + 1) : describeBadId(id, i + 1) };
    ids.push(kept);
  }
  const seen = new Set<RecordId>();
  for (const [i, id] of ids.entries()) {
    if (seen.has(id)) return { problem: `row ${i + 1} repeats id ${JSON.stringify(raw[i])}; ids must be unique` };
    seen.add(id);
  }
  return { idType: strings ? 'string' : allUuids ? 'uuid' : 'integer', ids };
}

/** `row` counts from 1, as a person counts the rows of a file. */
function describeBadString(id: string, row: number): string {
  return (
    `row ${row} has id ${JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id)}, which Restwell cannot keep: string ids are ${STRING_ID_RULE} ` +
    '(so that they fit in a URL as they are); give the rows such ids in the file, or leave the collection out'
  );
}

function describeBadId(id: unknown, row: number): string {
  if (id === undefined || id === null) return `row ${row} has no id; every row needs one (json-server cannot address it either)`;
  return (
    `row ${row} has id ${JSON.stringify(id)}, which Restwell cannot keep: ids are whole numbers from 1 to 2^53, UUIDs, ` +
    `or strings of ${STRING_ID_RULE} (all of one kind in a collection: numbers and strings do not mix); give the rows such ids in the file, or leave the collection out`
  );
}
