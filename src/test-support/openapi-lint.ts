import { Validator } from '@seriousme/openapi-schema-validator';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { resolveConfig } from '../config/load.js';
import { defineResources } from '../core/resource.js';
import { routeTable } from '../app/routes.js';
import { buildOpenApi } from '../app/openapi/document.js';
import type { Json } from '../http/openapi/components.js';

// The Spectral packages are CommonJS: their named exports come through the default export.
const { Spectral, Document } = spectralCore as unknown as typeof import('@stoplight/spectral-core');
const { Json: JsonParser } = spectralParsers as unknown as typeof import('@stoplight/spectral-parsers');
const { oas } = spectralRulesets as unknown as typeof import('@stoplight/spectral-rulesets');

/** A config exercising every field type, uuid and string ids, enums, references, defaults and a public URL. */
export const RICH_CONFIG = {
  server: { publicUrl: 'https://api.example.org/v1/' },
  resources: {
    authors: { id: 'uuid', description: 'People who write', fields: { name: { type: 'string', required: true, unique: true, minLength: 1, maxLength: 80, pattern: '^[^<>]+$' } } },
    'blog-posts': {
      fields: {
        title: { type: 'string', required: true, maxLength: 200 },
        author: { type: 'reference', to: 'authors', required: true },
        related: { type: 'reference', to: 'blog-posts' },
        status: { type: 'enum', values: ['draft', 'published'], default: 'draft' },
        kind: { type: 'enum', values: ['news', 'essay'], required: true },
        words: { type: 'integer', minimum: 0, index: true },
        rating: { type: 'number', minimum: 0, maximum: 5 },
        featured: { type: 'boolean', default: false },
        publishedAt: { type: 'datetime', description: 'When it went public' },
        meta: { type: 'json' },
        tag: { type: 'reference', to: 'tags' },
      },
    },
    tags: { id: 'string', description: 'Labels with ids chosen by their writers', fields: { label: { type: 'string' } } },
  },
};

/** The document for a raw config, as `GET /openapi.json` and `restwell openapi` build it. */
export function documentFor(raw: unknown): Json {
  const config = resolveConfig(raw, { env: {} });
  return buildOpenApi({ config, routes: routeTable(defineResources(config), config) });
}

/** Schema validation (OpenAPI 3.1 meta-schema) and the Spectral `spectral:oas` findings of a document. */
export async function lint(doc: Json): Promise<{ valid: boolean; version: string; errors: unknown; findings: Array<{ code: string; severity: number; path: string; message: string }> }> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  const spectral = new Spectral();
  spectral.setRuleset(oas as any);
  const findings = await spectral.run(new Document(JSON.stringify(doc, null, 2), JsonParser, 'openapi.json'));
  return {
    valid: result.valid,
    version: validator.version,
    errors: result.errors,
    findings: findings.map((f) => ({ code: String(f.code), severity: f.severity, path: f.path.join('.'), message: f.message })),
  };
}
