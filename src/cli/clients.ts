import { Command, InvalidArgumentError } from 'commander';
import { storeOptions, withAuth, type StoreOptions } from './auth-store.js';
import { scopesOption, warnUnknownScopes } from './keys.js';
import { serverBaseUrl } from './server-url.js';

/** `restwell clients …`: register, list and delete OAuth 2.0 clients (client credentials grant). */
export function clientsCommand(): Command {
  const clients = new Command('clients').description('OAuth 2.0 clients for POST /oauth/token (client credentials)');
  storeOptions(clients.command('create'))
    .description('register a client; prints its id and secret once (only a hash of the secret is stored)')
    .requiredOption('--name <name>', 'what the client is')
    .requiredOption('--scopes <scopes>', 'space-separated scopes it may be granted', scopesOption)
    .option('--url <url>', 'the server\'s base URL, for the curl it prints; default server.publicUrl, else the configured host and port')
    .action(async (o: StoreOptions & { name: string; scopes: string[]; url?: string }) => {
      let base = '';
      const { clientSecret, info } = await withAuth(o, (auth, config) => {
        warnUnknownScopes(o.scopes, config);
        base = serverBaseUrl(config.server, o.url);
        return auth.clients.create({ name: o.name, scopes: o.scopes });
      });
      process.stderr.write(`The secret is shown only now. Get a token with:\n  curl -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials ${base}/oauth/token\n`);
      process.stdout.write(`${JSON.stringify({ client_id: info.clientId, client_secret: clientSecret, scopes: info.scopes })}\n`);
    });
  storeOptions(clients.command('list'))
    .description('list clients (never their secrets)')
    .action(async (o: StoreOptions) => {
      const list = await withAuth(o, (auth) => auth.clients.list());
      for (const c of list) process.stdout.write(`${c.clientId}\t${c.name}\t${c.scopes.join(' ')}\n`);
      if (!list.length) process.stderr.write('no OAuth clients\n');
    });
  storeOptions(clients.command('delete'))
    .description('delete a client; its access tokens stop working too, and their event streams end within events.stream.credentialCheck')
    .argument('<client_id>')
    .action(async (id: string, o: StoreOptions) => {
      if (!(await withAuth(o, (auth) => auth.clients.delete(id)))) throw new InvalidArgumentError(`no OAuth client has id ${id}`);
      process.stderr.write(`deleted ${id}\n`);
    });
  return clients;
}
