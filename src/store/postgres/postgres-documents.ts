import type pg from 'pg';
import { unstorableText } from './postgres-codec.js';

/** Stores (or replaces) a document; `expiresAt` (ISO) hides it after that time. */
export async function put(pool: pg.Pool, kind: string, id: string, data: Record<string, unknown>, expiresAt?: string): Promise<void> {
  await pool.query(
    'INSERT INTO _rw_documents (kind, id, data, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (kind, id) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at',
    [kind, id, JSON.stringify(data), expiresAt ?? null],
  );
}

/** A live document, or undefined. */
export async function get(pool: pg.Pool, kind: string, id: string): Promise<Record<string, unknown> | undefined> {
  if (unstorableText(kind, id)) return undefined;
  const { rows } = await pool.query('SELECT data FROM _rw_documents WHERE kind = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > $3)', [kind, id, new Date().toISOString()]);
  return rows[0] ? JSON.parse(rows[0].data) : undefined;
}

/** The live documents of a kind, by id. */
export async function list(pool: pg.Pool, kind: string): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
  const { rows } = await pool.query('SELECT id, data FROM _rw_documents WHERE kind = $1 AND (expires_at IS NULL OR expires_at > $2) ORDER BY id', [kind, new Date().toISOString()]);
  return rows.map((r) => ({ id: r.id, data: JSON.parse(r.data) }));
}

/** Deletes a document; true when one was there. */
export async function remove(pool: pg.Pool, kind: string, id: string): Promise<boolean> {
  if (unstorableText(kind, id)) return false;
  const { rowCount } = await pool.query('DELETE FROM _rw_documents WHERE kind = $1 AND id = $2', [kind, id]);
  return (rowCount ?? 0) > 0;
}
