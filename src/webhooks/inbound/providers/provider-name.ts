/**
 * The providers an inbound webhook source may name in `webhooks.sources.<name>.provider`.
 * Kept in one list so config validation, verifiers and normalizers agree on the spelling.
 */
export const PROVIDER_NAMES = [
  'postmark',
  'sendgrid',
  'mailgun',
  'cloudmailin',
  'twilio',
  'vonage',
  'standard-webhooks',
  'github',
  'stripe',
  'generic',
] as const;

/** One of {@link PROVIDER_NAMES}. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** True when `name` is a known provider (narrows the type). */
export function isProviderName(name: unknown): name is ProviderName {
  return typeof name === 'string' && (PROVIDER_NAMES as readonly string[]).includes(name);
}
