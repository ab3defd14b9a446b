import type { OutboundConfig } from '../../../config/types.js';
import type { HttpContext } from '../../../http/context.js';
import type { ManualAttempts, SecretBox } from '../types.js';

/** What the outbound routes need beyond the store: sealing secrets, manual attempts, and the settings. */
export interface OutboundContext extends HttpContext {
  outbound: {
    secrets: SecretBox;
    attempts: ManualAttempts;
    settings: OutboundConfig;
  };
}
