import type { FieldError } from '../../core/errors.js';
import { isCredentialHeader, REDACTED } from '../credential-headers.js';
import type { SecretBox } from './types.js';

/** How a sealed value starts in an endpoint's stored headers; no value a user sends may start so. */
export const SEALED_PREFIX = 'rw-sealed:';

const sealed = (value: string) => value.startsWith(SEALED_PREFIX);
const pointer = (name: string) => `/headers/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;

/**
 * An endpoint's custom headers as they are stored: values that carry a credential (an
 * `Authorization`, an `X-Api-Key`, a `Bearer …`) sealed like the signing secrets, the rest as
 * they are. `[redacted]`, which reads show for a sealed value, keeps the stored value, so a GET
 * body can be PUT back; so does the same value sent again (no new seal, so no spurious change).
 */
export function sealHeaders(box: SecretBox, headers: Record<string, string>, stored: Record<string, string> = {}, errors: FieldError[] = []): Record<string, string> {
  const storedByName = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const before = storedByName.get(name.toLowerCase());
    if (value === REDACTED) {
      if (before !== undefined && sealed(before)) out[name] = before;
      else errors.push({ pointer: pointer(name), detail: `is ${REDACTED}, which stands for the value stored for this header, but none is stored; send the value itself` });
    } else if (sealed(value)) {
      errors.push({ pointer: pointer(name), detail: `must not start with ${SEALED_PREFIX}, which marks values this server sealed` });
    } else if (isCredentialHeader(name, value)) {
      out[name] = before !== undefined && sealed(before) && openOrNull(box, before) === value ? before : SEALED_PREFIX + box.sealText(value);
    } else {
      out[name] = value;
    }
  }
  return out;
}

/** The headers as the API shows them: sealed values as `[redacted]`. */
export function viewHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, sealed(value) ? REDACTED : value]));
}

/** The headers as a delivery sends them, sealed values opened; throws when one cannot be opened with this key. */
export function openHeaders(box: SecretBox, headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, sealed(value) ? box.openText(value.slice(SEALED_PREFIX.length)) : value]));
}

function openOrNull(box: SecretBox, value: string): string | null {
  try {
    return box.openText(value.slice(SEALED_PREFIX.length));
  } catch {
    return null;
  }
}
