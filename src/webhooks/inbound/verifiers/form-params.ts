import { parseMediaType } from '../../../http/media-type.js';
import { isJsonType, parseForm, parseJson } from '../payload/parse-payload.js';
import { contentTypeOf } from './headers.js';
import type { VerifyInput } from './types.js';

/**
 * The parameters a parameter-signing provider (Twilio, Mailgun, Vonage) signed: the form fields
 * of a urlencoded or multipart body, or the top-level values of a JSON object.
 * Returns undefined when the body cannot be read as parameters.
 */
export function signedParams(input: VerifyInput): Record<string, string[]> | undefined {
  const ct = contentTypeOf(input.headers, input.contentType);
  const type = parseMediaType(ct).type;
  try {
    if (isJsonType(type)) {
      const json = parseJson(input.rawBody);
      if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
      const out: Record<string, string[]> = {};
      for (const [k, v] of Object.entries(json)) {
        if (v !== null && typeof v !== 'object') out[k] = [String(v)];
        else if (v !== null) out[k] = [JSON.stringify(v)];
      }
      return out;
    }
    if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
      return parseForm(ct, input.rawBody).fields;
    }
    if (input.rawBody.length === 0) return {};
  } catch {
    return undefined;
  }
  return undefined;
}
