import { step, type Flow } from './flow.js';
import type { Statements } from './statements.js';

/*
 * Small internal documents keyed by (kind, id): API keys, OAuth clients, signing keys, revoked
 * token ids. Data is JSON text; a document past its `expires_at` (ISO text, which sorts as time)
 * is no longer found.
 */

/** Stores (or replaces) a document; `expiresAt` (ISO) hides it after that time. */
export function* putDocument(s: Statements, kind: string, id: string, data: Record<string, unknown>, expiresAt?: string): Flow<void> {
  const row = { kind, id, data: JSON.stringify(data), expires_at: expiresAt ?? null };
  yield* step(s.run(s.sql.insertInto('_rw_documents').values(row).onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet({ data: row.data, expires_at: row.expires_at })).compile()));
}

/**
 * Stores a document that never expires unless one is already stored under (kind, id), and returns
 * the stored one: nodes racing to create the same document all get the one that won.
 */
export function* ensureDocument(s: Statements, kind: string, id: string, data: Record<string, unknown>): Flow<Record<string, unknown>> {
  const row = { kind, id, data: JSON.stringify(data), expires_at: null };
  yield* step(s.run(s.sql.insertInto('_rw_documents').values(row).onConflict((oc) => oc.columns(['kind', 'id']).doNothing()).compile()));
  const [stored] = yield* step(s.rows(s.sql.selectFrom('_rw_documents').select('data').where('kind', '=', kind).where('id', '=', id).compile()));
  return JSON.parse(stored!.data);
}

/** A live document, or undefined. */
export function* getDocument(s: Statements, kind: string, id: string): Flow<Record<string, unknown> | undefined> {
  if (!s.storable(kind, id)) return undefined;
  const [row] = yield* step(s.rows(liveOf(s, kind).select('data').where('id', '=', id).compile()));
  return row ? JSON.parse(row.data) : undefined;
}

/** The live documents of a kind, by id. */
export function* listDocuments(s: Statements, kind: string): Flow<Array<{ id: string; data: Record<string, unknown> }>> {
  const rows = yield* step(s.rows(liveOf(s, kind).select(['id', 'data']).orderBy('id').compile()));
  return rows.map((r) => ({ id: r.id, data: JSON.parse(r.data) }));
}

/** Ids per query when many are asked about at once: well under every engine's bound on parameters. */
const IDS_PER_QUERY = 500;

/** Which of `ids` name a live document of `kind`: one query per few hundred ids, however many are asked about. */
export function* liveDocumentIds(s: Statements, kind: string, ids: Iterable<string>): Flow<Set<string>> {
  const asked = [...new Set(ids)].filter((id) => s.storable(kind, id));
  const live = new Set<string>();
  for (let i = 0; i < asked.length; i += IDS_PER_QUERY) {
    const chunk = asked.slice(i, i + IDS_PER_QUERY);
    for (const row of yield* step(s.rows(liveOf(s, kind).select('id').where('id', 'in', chunk).compile()))) live.add(row.id);
  }
  return live;
}

/** Deletes a document; true when one was there. */
export function* deleteDocument(s: Statements, kind: string, id: string): Flow<boolean> {
  if (!s.storable(kind, id)) return false;
  return (yield* step(s.run(s.sql.deleteFrom('_rw_documents').where('kind', '=', kind).where('id', '=', id).compile()))) > 0;
}

function liveOf(s: Statements, kind: string) {
  const now = new Date().toISOString();
  return s.sql.selectFrom('_rw_documents').where('kind', '=', kind).where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
}
