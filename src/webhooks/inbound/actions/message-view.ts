import type { NormalizeResult } from '../providers/index.js';

/**
 * What actions see of a delivery: the normalized e-mail or SMS (or, for events, the payload's
 * members and the payload itself under `payload`), plus `receivedAt` and `eventId`.
 */
export function messageView(message: NormalizeResult, meta: { receivedAt: string; eventId: string }): Record<string, unknown> {
  if (message.kind === 'email') return { ...message.email, ...meta };
  if (message.kind === 'sms') return { ...message.sms, ...meta };
  const p = message.payload;
  const members = p !== null && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
  return { ...members, payload: p, ...meta };
}

/** The value at a dotted path (`headers.x-spam-status`, `attachments.0.name`), or undefined. */
export function valueAt(view: unknown, path: readonly string[]): unknown {
  let v = view;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
