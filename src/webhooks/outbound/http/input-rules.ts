import { AddressPolicy } from '../address-policy.js';
import type { InputRules } from './endpoint-input.js';
import { knownEventTypes } from './event-type-patterns.js';
import type { OutboundContext } from './outbound-context.js';

/**
 * What endpoint bodies are checked against on this server: the SSRF policy of
 * `webhooks.outbound.allowNetworks` (the one deliveries go through) and the event types there are.
 */
export function inputRules(ctx: OutboundContext): InputRules {
  return { policy: new AddressPolicy(ctx.outbound.settings.allowNetworks), eventTypes: knownEventTypes(ctx), resources: ctx.resources };
}
