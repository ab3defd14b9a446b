import type { Json } from './components.js';

/** JSON and HAL get the same body; text/html gets the browsable page of it. */
export function representations(schema: Json): Json {
  return {
    'application/json': { schema },
    'application/hal+json': { schema },
    'text/html': { schema: { type: 'string', description: 'The browsable HTML page of the same representation (Accept: text/html)' } },
  };
}

/**
 * The vendor extension of a response that holds what a request whose `Accept` prefers another
 * media type gets instead (a browser's text/html page): the same status and headers, as `content`.
 */
export const ALTERNATIVE_CONTENT = 'x-alternative-content';

/**
 * A response as the document states it: when its content offers JSON and text/html, the page moves
 * to ALTERNATIVE_CONTENT. Client generators (openapi-typescript with openapi-fetch) type a body as
 * the union of every media type's schema, and a `string` in that union hides every field of the JSON
 * body; the page is still described, as the alternative a browser is served. `share` turns its
 * schema into a reference to a component, so the document says it once, not in every response.
 */
export function withHtmlAlternative(response: Json, share: (schema: Json) => Json = (schema) => schema): Json {
  const content = response.content as Record<string, Json> | undefined;
  if (!content?.['text/html'] || Object.keys(content).length === 1) return response;
  const { 'text/html': html, ...json } = content;
  const page = html.schema ? { ...html, schema: share(html.schema as Json) } : html;
  return { ...response, content: json, [ALTERNATIVE_CONTENT]: { 'text/html': page } };
}
