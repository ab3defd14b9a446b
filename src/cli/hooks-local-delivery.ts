import type { RestwellConfig } from '../config/types.js';

/** The loopback addresses `serve --allow-local-webhooks` lets outbound deliveries reach. */
export const LOOPBACK_NETWORKS = ['127.0.0.1', '::1'] as const;

/**
 * `serve --allow-local-webhooks`: adds this machine's loopback addresses to the SSRF guard's
 * `webhooks.outbound.allowNetworks` for this run, so the server delivers to a receiver on this
 * machine (`restwell hooks listen`), and returns the warning to print at start. It is an operator's
 * explicit choice, never a default: with it, anyone who may manage endpoints can make the server
 * POST to any service listening on this machine's loopback interface.
 */
export function allowLocalWebhooks(config: RestwellConfig): { config: RestwellConfig; warning: string } {
  const allow = [...config.webhooks.outbound.allowNetworks];
  for (const network of LOOPBACK_NETWORKS) if (!allow.includes(network)) allow.push(network);
  return {
    config: { ...config, webhooks: { ...config.webhooks, outbound: { ...config.webhooks.outbound, allowNetworks: allow } } },
    warning:
      'WARNING: --allow-local-webhooks: outbound webhooks may be delivered to this machine (127.0.0.1, ::1); ' +
      'the SSRF guard lets them through, so anyone with webhooks:write can make this server POST to local services. For development only.',
  };
}
