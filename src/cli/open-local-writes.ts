import { isLoopback } from '../auth/exposure.js';
import type { RestwellConfig } from '../config/types.js';

/**
 * `serve db.json` as a drop-in for json-server, whose front-ends write without tokens: when the
 * server listens on loopback only, every resource whose config has no `access` block takes writes
 * without a token (`write: public`), for this run; the config file is left as it is, so the same
 * config served elsewhere keeps the safe default. Beyond loopback nothing is opened. Returns the
 * config to serve and the banner's line about it (none when nothing was opened).
 */
export function openLocalWrites(config: RestwellConfig): { config: RestwellConfig; notice?: string } {
  const host = config.server.host;
  if (!isLoopback(host)) return { config };
  const opened = Object.entries(config.resources).filter(([, r]) => !r.access);
  if (!opened.length) return { config };
  const resources = { ...config.resources };
  for (const [name, r] of opened) resources[name] = { ...r, access: { write: 'public' } };
  return {
    config: { ...config, resources },
    notice: `Writes are open to this machine (${host}) without a token, as json-server's are (${opened.map(([name]) => name).join(', ')}: no access block in the config); bind another --host and writes need a token.`,
  };
}
