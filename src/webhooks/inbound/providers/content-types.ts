import { parseMediaType } from '../../../http/media-type.js';
import { isJsonType, JSON_TYPE } from '../payload/parse-payload.js';
import type { ProviderDescriptor } from './provider-descriptor.js';

/**
 * True when `provider` may send a body with this Content-Type (parameters such as charset ignored).
 * `application/*+json` variants (e.g. cloudevents) count as JSON wherever JSON is accepted.
 */
export function acceptsContentType(provider: ProviderDescriptor, contentType: string | undefined): boolean {
  const type = parseMediaType(contentType).type;
  return provider.contentTypes.includes(type) || (isJsonType(type) && provider.contentTypes.includes(JSON_TYPE));
}
