/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string of a parsed config.
 * An unset variable without a default is reported by key path, so a typo in a secret's
 * name stops start-up instead of silently becoming an empty string.
 */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, path: string[] = [], missing: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => {
      const v = env[name];
      if (v !== undefined && v !== '') return v;
      if (fallback !== undefined) return fallback;
      missing.push(`${path.join('.') || '(root)'}: environment variable ${name} is not set`);
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substituteEnv(v, env, [...path, String(i)], missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env, [...path, k], missing)]));
  }
  return value;
}
