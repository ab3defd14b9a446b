/** A request's claim on an Idempotency-Key (IETF httpapi draft). */
export interface IdempotencyClaim {
  /** Who and where: e.g. the authenticated subject plus method and path, so keys never collide across clients. */
  scope: string;
  key: string;
  /** Hash of the request (method, path, body) that first used the key. */
  fingerprint: string;
  expiresAt: string;
}

/** What is stored under a key: in flight until the first request completes. */
export interface IdempotencyEntry {
  fingerprint: string;
  state: 'in-flight' | 'complete';
  response?: { status: number; headers: Record<string, string>; body: string };
}
