import { step, type Flow } from './flow.js';
import { storableError } from './inbox.js';
import type { WebhookEndpoint } from './outbox.js';
import { flag, toEndpoint } from './outbox-rows.js';
import type { Statements } from './statements.js';

/** The enabled endpoints that belong to a subscriber (they have owner rights), for the revocation check. */
export function* ownedEndpoints(s: Statements): Flow<WebhookEndpoint[]> {
  const q = s.sql.selectFrom('_rw_hook_endpoints').selectAll().where('enabled', '=', flag(s.codec, true)).where('owner_access', 'is not', null).orderBy('id');
  return (yield* step(s.rows(q.compile()))).map((r) => toEndpoint(s.codec, r));
}

/**
 * Disables an enabled endpoint with a reason, as the dispatcher does (its version, the ETag of
 * what a user set, stays); false when it was disabled already or is gone.
 */
export function* disableEndpoint(s: Statements, id: string, reason: string): Flow<boolean> {
  if (!s.storable(id)) return false;
  const q = s.sql.updateTable('_rw_hook_endpoints').set({ enabled: flag(s.codec, false), disabled_reason: storableError(reason) }).where('id', '=', id).where('enabled', '=', flag(s.codec, true));
  return (yield* step(s.run(q.compile()))) > 0;
}
