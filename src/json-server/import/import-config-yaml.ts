import { Document, isMap, isPair } from 'yaml';
import type { ImportPlan } from './infer-resources.js';

/**
 * The config file of an imported plan: `compat: json-server`, then its resources, each field on one line, with no `access`
 * block (so the default applies: readable by all, writable with a token) and no `database` (it is
 * given with --db or DATABASE_URL, and a PostgreSQL URL may hold a password).
 */
export function importConfigYaml(plan: ImportPlan, source: string): string {
  // compat first: the API answers as json-server's, so the front-ends written against it work unchanged.
  const doc = new Document({ compat: 'json-server', resources: plan.resources });
  // Each field's mapping on one line: `title: { type: string, required: true }`.
  const resources = doc.get('resources', true);
  if (isMap(resources)) {
    for (const pair of resources.items) {
      const fields = isMap(pair.value) ? pair.value.get('fields', true) : undefined;
      if (isMap(fields)) for (const f of fields.items) if (isPair(f) && isMap(f.value)) f.value.flow = true;
      if (isMap(fields) && !fields.items.length) fields.flow = true;
    }
  }
  doc.commentBefore =
    ` Resources inferred by \`restwell import\` from ${source}. Edit freely: add access rules,\n` +
    ` unique fields, limits (see the README's "Configuration"); serve it with --config.\n` +
    ` compat: json-server answers as json-server does; remove it for Restwell's HAL API.` +
    (plan.notes.length ? `\n\n Notes from the import:\n${plan.notes.map((n) => `   ${n}`).join('\n')}` : '');
  return doc.toString({ lineWidth: 0 });
}
