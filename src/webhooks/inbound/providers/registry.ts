import { cloudmailin } from './cloudmailin.js';
import { generic } from './generic.js';
import { github } from './github.js';
import { mailgun } from './mailgun.js';
import { postmark } from './postmark.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import { sendgrid } from './sendgrid.js';
import { standardWebhooks } from './standard-webhooks.js';
import { stripe } from './stripe.js';
import { twilio } from './twilio.js';
import { vonage } from './vonage.js';

/**
 * The providers a source may name in `webhooks.sources.<name>.provider`: the one list of them.
 * A new provider is one file exporting its descriptor, plus its line here.
 */
export const PROVIDERS: readonly ProviderDescriptor[] = [
  postmark,
  sendgrid,
  mailgun,
  cloudmailin,
  twilio,
  vonage,
  standardWebhooks,
  github,
  stripe,
  generic,
];

/** The provider of that name in `providers`, or undefined. */
export function findProvider(name: string, providers: readonly ProviderDescriptor[] = PROVIDERS): ProviderDescriptor | undefined {
  return providers.find((p) => p.name === name);
}

/** Why `name` names no provider, listing those that exist. */
export function unknownProvider(name: string, providers: readonly ProviderDescriptor[] = PROVIDERS): string {
  return `unknown provider "${name}"; known: ${providers.map((p) => p.name).join(', ')}`;
}
