import { serialCheck } from '../../auth/serial-check.js';
import type { FastifyBaseLogger } from 'fastify';
import { API_KEY_KIND } from '../../auth/api-keys.js';
import { OAUTH_CLIENT_KIND } from '../../auth/oauth-clients.js';
import type { Revocations } from '../../auth/revocations.js';
import type { Store } from '../../store/store.js';
import type { WebhookEndpoint } from '../../store/outbox.js';

/** The reason an endpoint is disabled with when its owner's credential no longer stands. */
export function revokedReason(endpoint: WebhookEndpoint, at: Date): string {
  const what = endpoint.ownerAccess?.kind === 'oauth-client' ? 'the OAuth client it belongs to was deleted' : 'the API key of its owner was revoked or expired';
  return `${what} (noticed at ${at.toISOString()}), so deliveries stopped; its owner may delete it, or re-enable it with a credential of the same subject (PATCH enabled: true)`;
}

/**
 * Disables the endpoints whose owner's credential was revoked: an API key deleted or expired, an
 * OAuth client deleted (tokens of other issuers only expire, and are not checked). It asks the store,
 * which every node shares, so a revocation made on any node or by the CLI is seen within one
 * interval, and at once after a revocation on this node; the endpoint is disabled in the shared
 * database, so every node's dispatcher stops for it. Runs only while started.
 */
export class OwnerWatch {
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly store: Pick<Store, 'outbox' | 'liveDocumentIds'>,
    private readonly revocations: Pick<Revocations, 'onRevoked'> | undefined,
    private readonly intervalMs: number,
    private readonly log: () => FastifyBaseLogger | undefined,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
    this.stopListening = this.revocations?.onRevoked(() => void this.check());
    void this.check();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /**
   * Checks every owned endpoint now; resolves once done (never rejects: a failed check is logged and
   * the next one tries again). One asked for while one runs runs after it, since the running one may
   * have read before the revocation that asked committed.
   */
  readonly check: () => Promise<void> = serialCheck(async () => {
    try {
      await this.round();
    } catch (err) {
      // The endpoints stay as they are: the database being down revokes nothing.
      this.log()?.warn({ err: (err as Error).message }, 'webhook endpoints: checking their owners\' credentials failed; retrying');
    }
  });

  /** One round: a read of the owned endpoints, a query per kind of credential, a write per endpoint to disable. */
  private async round(): Promise<void> {
    const owned = (await this.store.outbox.ownedEndpoints()).filter((e) => e.ownerAccess?.credential !== undefined && e.ownerAccess.kind !== 'jwt');
    if (!owned.length) return;
    const ids = (kind: string) => new Set(owned.filter((e) => e.ownerAccess!.kind === kind).map((e) => e.ownerAccess!.credential!));
    const keys = ids('api-key');
    const clients = ids('oauth-client');
    const [liveKeys, liveClients] = await Promise.all([
      keys.size ? this.store.liveDocumentIds(API_KEY_KIND, keys) : new Set<string>(),
      clients.size ? this.store.liveDocumentIds(OAUTH_CLIENT_KIND, clients) : new Set<string>(),
    ]);
    const now = new Date();
    for (const e of owned) {
      const live = e.ownerAccess!.kind === 'api-key' ? liveKeys : liveClients;
      if (live.has(e.ownerAccess!.credential!)) continue;
      const reason = revokedReason(e, now);
      if (await this.store.outbox.disableEndpoint(e.id, reason)) this.log()?.warn({ endpoint: e.id, owner: e.owner }, `webhook endpoint disabled: ${reason}`);
    }
  }
}
