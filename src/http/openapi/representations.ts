import type { Json } from './components.js';

/** JSON and HAL get the same body; text/html gets the browsable page of it. */
export function representations(schema: Json): Json {
  return {
    'application/json': { schema },
    'application/hal+json': { schema },
    'text/html': { schema: { type: 'string', description: 'The browsable HTML page of the same representation (Accept: text/html)' } },
  };
}
