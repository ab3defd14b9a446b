import { DEFAULTS } from '../../../config/defaults.js';
import { parseMediaType } from '../../../http/media-type.js';
import { PayloadError } from '../payload/payload-error.js';
import { acceptsContentType } from './content-types.js';
import type { ProviderDescriptor } from './provider-descriptor.js';
import type { NormalizeResult } from './types.js';

/**
 * Turns a verified delivery into a normalized e-mail, SMS or event payload.
 * Never throws anything but {@link PayloadError} for bad input: a body of a content type the provider
 * never sends, malformed JSON/forms, JSON nesting deeper than `maxDepth`, or a payload missing the
 * fields that identify the format.
 */
export async function normalize(provider: ProviderDescriptor, contentType: string | undefined, rawBody: Buffer, maxDepth: number = DEFAULTS.server.maxJsonDepth): Promise<NormalizeResult> {
  const ct = contentType ?? '';
  if (!acceptsContentType(provider, ct)) {
    throw new PayloadError(`${provider.name} sends ${provider.contentTypes.join(', ')}; got ${parseMediaType(ct).type || 'no content type'}`, provider.name);
  }
  try {
    return provider.normalize(ct, rawBody, maxDepth);
  } catch (err) {
    if (err instanceof PayloadError) {
      if (err.provider === undefined) throw new PayloadError(err.message, provider.name);
      throw err;
    }
    // A bug or an input shape nobody foresaw must still become a 4xx-able error, not a crash.
    throw new PayloadError(`could not read the ${provider.name} payload: ${(err as Error).message}`, provider.name);
  }
}
