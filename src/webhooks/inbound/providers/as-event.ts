import { parsePayload } from '../payload/parse-payload.js';
import type { ProviderDescriptor } from './provider-descriptor.js';

/** The normalizer of providers whose deliveries are events as they are: the parsed body, unchanged. */
export const asEvent: ProviderDescriptor['normalize'] = (contentType, rawBody, maxDepth) => ({ kind: 'event', payload: parsePayload(contentType, rawBody, maxDepth) });
