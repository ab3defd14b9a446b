import { writeFileSync } from 'node:fs';
import { loadConfig } from '../config/load.js';
import { defineResources } from '../core/resource.js';
import { buildOpenApi } from '../app/openapi/document.js';
import { routeTable } from '../app/routes.js';
import { withDemoPlaceholders } from '../webhooks/inbound/demo-secrets.js';

/** Options of `restwell openapi`. */
export interface OpenApiOptions {
  config?: string;
  output?: string;
}

/**
 * `restwell openapi`: the document `GET /openapi.json` serves, for the same config, printed (or
 * written to a file). It needs only the config and the route table, never the database.
 */
export function openapi(options: OpenApiOptions): void {
  // The document does not depend on secrets, so the demo's unset ones are not generated here.
  const config = loadConfig({ file: options.config, env: withDemoPlaceholders() });
  const text = JSON.stringify(buildOpenApi({ config, routes: routeTable(defineResources(config), config) }), null, 2) + '\n';
  if (options.output) writeFileSync(options.output, text);
  else process.stdout.write(text);
}
