import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DEFAULTS } from '../../config/defaults.js';
import { databaseDirectory } from '../../store/database-location.js';
import { readSecretFile, writeSecretFile } from '../secret-file.js';

/** The environment variables the demo config's webhook sources read their secrets from. */
export const DEMO_SECRET_NAMES = ['MAIL_HOOK_USER', 'MAIL_HOOK_PASSWORD', 'TWILIO_AUTH_TOKEN'] as const;

const generators: Record<(typeof DEMO_SECRET_NAMES)[number], () => string> = {
  MAIL_HOOK_USER: () => 'postmark',
  MAIL_HOOK_PASSWORD: () => randomBytes(18).toString('base64url'),
  // Twilio auth tokens are 32 hex digits.
  TWILIO_AUTH_TOKEN: () => randomBytes(16).toString('hex'),
};

/** Where the demo keeps its generated secrets: next to the SQLite file, else in ./data. */
export function demoSecretsPath(database: string | undefined): string {
  const db = database ?? DEFAULTS.database;
  return join(databaseDirectory(db) ?? './data', 'demo-secrets.json');
}

/**
 * The environment to resolve the demo config with: `env`, plus the demo's webhook secrets it
 * lacks, read from `path` or generated once and saved there (mode 0600). Set variables win, so
 * a user can pin the secrets; nothing is written when all of them are set.
 */
export function withDemoSecrets(env: NodeJS.ProcessEnv, path: string): NodeJS.ProcessEnv {
  const missing = DEMO_SECRET_NAMES.filter((n) => !env[n]);
  if (!missing.length) return env;
  let saved: Record<string, string> = {};
  const text = readSecretFile(path);
  if (text !== undefined) {
    try {
      saved = JSON.parse(text);
    } catch {
      saved = {}; // A damaged file is replaced: the secrets are only the demo's.
    }
  }
  let changed = false;
  for (const name of missing) {
    if (typeof saved[name] === 'string' && saved[name]) continue;
    saved[name] = generators[name]();
    changed = true;
  }
  if (changed) writeSecretFile(path, JSON.stringify(saved, null, 2) + '\n');
  const out = { ...env };
  for (const name of missing) out[name] = saved[name];
  return out;
}

/**
 * The environment a CLI command resolves its config with. For the built-in demo (no config file)
 * that includes the demo's webhook secrets, kept next to its database; a user's config is
 * resolved with `env` as is, so an unset variable there still stops start-up.
 */
export function cliConfigEnv(options: { file?: string; database?: string }, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (options.file ?? env.RESTWELL_CONFIG) return env;
  return withDemoSecrets(env, demoSecretsPath(options.database ?? env.DATABASE_URL));
}

/** For commands that never use the secrets (`openapi`): placeholders for the demo's unset ones, nothing written. */
export function withDemoPlaceholders(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of DEMO_SECRET_NAMES) out[name] ||= 'unset';
  return out;
}
