import { headerValue } from './headers.js';
import { safeEqualAny } from '../../../core/safe-equal.js';
import { fail, requireOptions, type Verifier } from './types.js';

/**
 * A shared secret sent verbatim in a configured header (`verify: { header, secret }`).
 * For `header: authorization`, a `Bearer <secret>` value is accepted too.
 */
export const verifyHeaderToken: Verifier = (input, config) => {
  const { header, secret } = requireOptions(config, 'Header token', 'header', 'secret');
  const value = headerValue(input.headers, header!);
  if (value === undefined || value === '') return fail('missing_signature', `missing ${header} header`);
  const accepted = header!.toLowerCase() === 'authorization' ? [secret!, `Bearer ${secret}`] : [secret!];
  if (!safeEqualAny(value.trim(), accepted)) return fail('bad_credentials', `the ${header} header does not hold the shared secret`);
  return { ok: true };
};
