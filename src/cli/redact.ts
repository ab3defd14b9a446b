import { isCredentialName } from '../app/ops/credential-name.js';

/**
 * A database URL fit for logs: the password replaced, and the value of any query parameter that
 * looks like a credential (`?password=`, `sslpassword=`: pg takes those too).
 */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    let changed = false;
    if (u.password) {
      u.password = '***';
      changed = true;
    }
    for (const name of new Set(u.searchParams.keys())) {
      if (!isCredentialName(name)) continue;
      u.searchParams.set(name, '***');
      changed = true;
    }
    return changed ? u.toString() : url;
  } catch {
    return url;
  }
}
