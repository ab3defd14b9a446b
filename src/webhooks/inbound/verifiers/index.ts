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
export { DEFAULT_TOLERANCE_SECONDS } from './timestamp.js';
export { signBasicAuth, verifyBasicAuth } from './basic-auth.js';
export { signGithub, verifyGithub } from './github.js';
export { verifyHeaderToken } from './header-token.js';
export { headerValue } from './headers.js';
export { signMailgun, verifyMailgun } from './mailgun.js';
export { signStandardWebhooks, verifyStandardWebhooks, type StandardWebhooksSignOptions } from './standard-webhooks.js';
export { signStripe, verifyStripe } from './stripe.js';
export { signTwilio, twilioSignature, verifyTwilio } from './twilio.js';
export { signVonage, verifyVonageSignature, vonageSignature } from './vonage-signature.js';

/** The verification schemes; a provider supports one or more of them. */
export type SchemeName =
  | 'standard-webhooks' | 'github' | 'stripe' | 'twilio' | 'mailgun' | 'basic' | 'header' | 'vonage-signature' | 'none';

/** A scheme a provider can list: every one but `none`, which a source chooses with `verify: none`. */
export type SigningScheme = Exclude<SchemeName, 'none'>;

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

const schemeKeys: Record<SigningScheme, (keyof VerifyOptions)[]> = {
  'standard-webhooks': ['secret'],
  github: ['secret'],
  stripe: ['secret'],
  twilio: ['authToken'],
  mailgun: ['secret'],
  basic: ['username', 'password'],
  header: ['header', 'secret'],
  'vonage-signature': ['secret'],
};

/** What scheme choice needs to know of a provider: its name (for messages) and its schemes, preferred first. */
export interface SchemeChoice {
  readonly name: string;
  readonly schemes: readonly SigningScheme[];
}

const has = (o: VerifyOptions, k: keyof VerifyOptions) => typeof o[k] === 'string' && o[k] !== '';

/**
 * The scheme a source uses: the first of its provider's schemes whose keys are all present in the
 * verify config. Throws {@link VerifyConfigError} naming the keys that would be accepted.
 */
export function schemeFor(provider: SchemeChoice, config: VerifyConfig): SchemeName {
  if (config === 'none') return 'none';
  if (config && typeof config === 'object') {
    for (const scheme of provider.schemes) if (schemeKeys[scheme].every((k) => has(config, k))) return scheme;
  }
  const wanted = provider.schemes.map((s) => schemeKeys[s].map((k) => `verify.${k}`).join(' + ')).join(', or ');
  throw new VerifyConfigError(`provider ${provider.name} needs ${wanted} (or verify: none)`);
}

/**
 * Problems with a source's `verify` config, as messages naming the key; empty when it is usable.
 * Call at start-up so a bad config stops the server instead of rejecting every delivery.
 */
export function checkVerifyConfig(provider: SchemeChoice, config: unknown): string[] {
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

/** Verifies a delivery with a scheme. Throws {@link VerifyConfigError} only for a bad config. */
export function verify(scheme: SchemeName, input: VerifyInput, config: VerifyConfig): VerifyResult {
  return schemes[scheme](input, config);
}
