import { Command, InvalidArgumentError } from 'commander';
import { cliCommand } from './invocation.js';
import { scopesOf } from '../auth/access.js';
import { parseKeyLifetime } from '../auth/api-keys.js';
import { defineResources } from '../core/resource.js';
import { invalidScopes, parseScopes } from '../auth/scopes.js';
import { scopeCatalog, unknownScopeMessage, unknownScopes } from '../auth/scope-catalog.js';
import { DEFAULTS } from '../config/defaults.js';
import type { RestwellConfig } from '../config/types.js';
import { storeOptions, withAuth, type StoreOptions } from './auth-store.js';

/** Parses `--scopes "a b"`; refuses characters RFC 6749 does not allow in a scope. */
export function scopesOption(value: string): string[] {
  const scopes = parseScopes(value);
  const bad = invalidScopes(scopes);
  if (bad.length) throw new InvalidArgumentError(`not valid scope tokens: ${bad.join(', ')}`);
  return scopes;
}

/**
 * Warns on stderr about each scope nothing in `config` checks (a typo such as `charcters:write`
 * would otherwise make a key that silently grants nothing), naming the likely scope. A warning,
 * not a refusal: a config may start checking the scope later.
 */
export function warnUnknownScopes(scopes: string[], config: RestwellConfig): void {
  for (const u of unknownScopes(scopes, scopeCatalog(defineResources(config), config))) process.stderr.write(`warning: ${unknownScopeMessage(u)}\n`);
}

function lifetimeOption(value: string): number {
  try {
    return parseKeyLifetime(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/**
 * The one command that creates a key able to do every write the config guards, for the start-up
 * banner; it names the config and database when they are not the defaults, so it hits the same store.
 */
export function createKeyCommand(config: RestwellConfig, configFile?: string): string {
  const scopes = new Set<string>();
  for (const r of defineResources(config)) for (const rule of Object.values(r.access)) for (const s of scopesOf(rule)) scopes.add(s);
  const where = `${configFile ? ` --config ${configFile}` : ''}${config.database !== DEFAULTS.database ? ` --db ${config.database}` : ''}`;
  return `${cliCommand()} keys create${where} --name me --scopes "${[...scopes].join(' ') || '*'}"`;
}

/** `restwell keys …`: create, list and revoke API keys; rotate the token signing key. */
export function keysCommand(): Command {
  const keys = new Command('keys').description('API keys (bearer tokens) and the signing key of OAuth access tokens');
  storeOptions(keys.command('create'))
    .description('create an API key; prints it once (only its hash is stored)')
    .requiredOption('--name <name>', 'what the key is for')
    .requiredOption('--scopes <scopes>', 'space-separated scopes, e.g. "characters:write"; "*" is admin', scopesOption)
    .option('--expires <duration>', 'lifetime such as 30d or 12h, at most 3650d; default never', lifetimeOption)
    .action(async (o: StoreOptions & { name: string; scopes: string[]; expires?: number }) => {
      const { key, info } = await withAuth(o, (auth, config) => {
        warnUnknownScopes(o.scopes, config);
        return auth.apiKeys.create({ name: o.name, scopes: o.scopes, expiresInSeconds: o.expires });
      });
      process.stderr.write(`Created API key ${info.id} (${info.name}; scopes: ${info.scopes.join(' ') || '(none)'}; expires: ${info.expiresAt ?? 'never'}).\nIt is shown only now; send it as "Authorization: Bearer <key>":\n`);
      process.stdout.write(`${key}\n`);
    });
  storeOptions(keys.command('list'))
    .description('list API keys (never the keys themselves)')
    .action(async (o: StoreOptions) => {
      const list = await withAuth(o, (auth) => auth.apiKeys.list());
      for (const k of list) process.stdout.write(`${k.id}\t${k.hint}…\t${k.name}\t${k.scopes.join(' ')}\texpires ${k.expiresAt ?? 'never'}\n`);
      if (!list.length) process.stderr.write('no API keys\n');
    });
  storeOptions(keys.command('revoke'))
    .description('revoke an API key by id (running servers stop accepting it within the token cache TTL, and end its event streams within events.stream.credentialCheck)')
    .argument('<id>', 'the key id, as `keys list` shows it')
    .action(async (id: string, o: StoreOptions) => {
      if (!(await withAuth(o, (auth) => auth.apiKeys.revoke(id)))) throw new InvalidArgumentError(`no API key has id ${id}`);
      process.stderr.write(`revoked ${id}\n`);
    });
  storeOptions(keys.command('rotate-signing'))
    .description('make a new key sign access tokens; old keys stay published until their tokens expire')
    .action(async (o: StoreOptions) => {
      const kid = await withAuth(o, async (auth) => (await auth.keyring.rotate()).kid);
      process.stderr.write(`new signing key ${kid}; running servers start signing with it within a minute\n`);
    });
  return keys;
}
