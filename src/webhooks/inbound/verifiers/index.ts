import { isProviderName, type ProviderName } from '../providers/provider-name.js';
import { verifyBasicAuth } from './basic-auth.js';
import { verifyGithub } from './github.js';
import { verifyHeaderToken } from './header-token.js';
import { verifyMailgun } from './mailgun.js';
import { standardWebhooksKey, verifyStandardWebhooks } from './standard-webhooks.js';
import { verifyStripe } from './stripe.js';
import { verifyTwilio } from './twilio.js';
import { VerifyConfigError, type Verifier, type VerifyConfig, type VerifyInput, type VerifyOptions, type VerifyResult } from './types.js';
import { verifyVonageSignature } from './vonage-signature.js';

export * from './types.js';
export { safeEqual, safeEqualAny } from './safe-equal.js';
export { DEFAULT_TOLERANCE_SECONDS } from './timestamp.js';
export { eventIdFor } from './event-id.js';
export { signBasicAuth, verifyBasicAuth } from './basic-auth.js';
export { signGithub, verifyGithub } from './github.js';
export { verifyHeaderToken } from './header-token.js';
export { signMailgun, verifyMailgun } from './mailgun.js';
export { signStandardWebhooks, verifyStandardWebhooks, type StandardWebhooksSignOptions } from './standard-webhooks.js';
export { signStripe, verifyStripe } from './stripe.js';
export { signTwilio, twilioSignature, verifyTwilio } from './twilio.js';
export { signVonage, verifyVonageSignature, vonageSignature } from './vonage-signature.js';

/** The verification schemes; a provider maps to one or more of them. */
export type SchemeName =
  | 'standard-webhooks' | 'github' | 'stripe' | 'twilio' | 'mailgun' | 'basic' | 'header' | 'vonage-signature' | 'none';

/** One verifier per scheme. */
export const schemes: Record<SchemeName, Verifier> = {
  'standard-webhooks': verifyStandardWebhooks,
  github: verifyGithub,
  stripe: verifyStripe,
  twilio: verifyTwilio,
  mailgun: verifyMailgun,
  basic: verifyBasicAuth,
  header: verifyHeaderToken,
  'vonage-signature': verifyVonageSignature,
  none: () => ({ ok: true }),
};

const schemeKeys: Record<Exclude<SchemeName, 'none'>, (keyof VerifyOptions)[]> = {
  'standard-webhooks': ['secret'],
  github: ['secret'],
  stripe: ['secret'],
  twilio: ['authToken'],
  mailgun: ['secret'],
  basic: ['username', 'password'],
  header: ['header', 'secret'],
  'vonage-signature': ['secret'],
};

/** Schemes each provider supports, in order of preference; the first whose keys are all configured wins. */
export const providerSchemes: Record<ProviderName, readonly Exclude<SchemeName, 'none'>[]> = {
  postmark: ['basic', 'header'],
  sendgrid: ['basic', 'header'],
  mailgun: ['mailgun'],
  cloudmailin: ['basic', 'header'],
  twilio: ['twilio', 'basic'],
  vonage: ['header', 'basic', 'vonage-signature'],
  'standard-webhooks': ['standard-webhooks'],
  github: ['github'],
  stripe: ['stripe'],
  generic: ['header', 'basic'],
};

const has = (o: VerifyOptions, k: keyof VerifyOptions) => typeof o[k] === 'string' && o[k] !== '';

/**
 * The scheme a source uses, chosen by the keys present in its verify config.
 * Throws {@link VerifyConfigError} naming the keys that would be accepted.
 */
export function schemeFor(provider: ProviderName, config: VerifyConfig): SchemeName {
  if (config === 'none') return 'none';
  const options = providerSchemes[provider];
  if (!options) throw new VerifyConfigError(`unknown webhook provider "${provider}"`);
  if (config && typeof config === 'object') {
    for (const scheme of options) if (schemeKeys[scheme].every((k) => has(config, k))) return scheme;
  }
  const wanted = options.map((s) => schemeKeys[s].map((k) => `verify.${k}`).join(' + ')).join(', or ');
  throw new VerifyConfigError(`provider ${provider} needs ${wanted} (or verify: none)`);
}

/**
 * Problems with a source's `verify` config, as messages naming the key; empty when it is usable.
 * Call at start-up so a bad config stops the server instead of rejecting every delivery.
 */
export function checkVerifyConfig(provider: string, config: unknown): string[] {
  if (!isProviderName(provider)) return [`provider: unknown provider "${provider}"`];
  if (config === undefined || config === null) return ['verify: required; use verify: none to accept unsigned deliveries'];
  if (typeof config === 'string') return config === 'none' ? [] : [`verify: must be an object or "none", got "${config}"`];
  if (typeof config !== 'object' || Array.isArray(config)) return ['verify: must be an object or "none"'];
  const o = config as VerifyOptions;
  const problems: string[] = [];
  try {
    const scheme = schemeFor(provider, o);
    if (scheme === 'standard-webhooks') standardWebhooksKey(o.secret!);
  } catch (err) {
    problems.push(`verify: ${(err as Error).message}`);
  }
  if (o.tolerance !== undefined && !(typeof o.tolerance === 'number' && o.tolerance > 0)) {
    problems.push('verify.tolerance: must be a positive number of seconds');
  }
  if (o.publicUrl !== undefined && !/^https?:\/\/[^/?#]+/i.test(String(o.publicUrl))) {
    problems.push('verify.publicUrl: must be an absolute http(s) URL');
  }
  if (o.algorithm !== undefined && !['md5hash', 'md5', 'sha1', 'sha256', 'sha512'].includes(o.algorithm)) {
    problems.push('verify.algorithm: must be one of md5hash, md5, sha1, sha256, sha512');
  }
  return problems;
}

function providerVerifier(provider: ProviderName): Verifier {
  return (input, config) => schemes[schemeFor(provider, config)](input, config);
}

/** The verifier registry, keyed by provider name; each picks its scheme from the verify config. */
export const verifiers: Record<ProviderName, Verifier> = {
  postmark: providerVerifier('postmark'),
  sendgrid: providerVerifier('sendgrid'),
  mailgun: providerVerifier('mailgun'),
  cloudmailin: providerVerifier('cloudmailin'),
  twilio: providerVerifier('twilio'),
  vonage: providerVerifier('vonage'),
  'standard-webhooks': providerVerifier('standard-webhooks'),
  github: providerVerifier('github'),
  stripe: providerVerifier('stripe'),
  generic: providerVerifier('generic'),
};

/** Verifies a delivery for a provider. Throws {@link VerifyConfigError} only for a bad config. */
export function verify(provider: ProviderName, input: VerifyInput, config: VerifyConfig): VerifyResult {
  return verifiers[provider](input, config);
}
