import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { ImportError } from '../app/import/import-error.js';
import { inferImport, type ImportPlan } from '../app/import/infer-resources.js';
import { importConfigYaml } from '../app/import/import-config-yaml.js';
import { ConfigError, resolveConfig } from '../config/load.js';
import type { RestwellConfig } from '../config/types.js';

/** A json-server data file read, parsed and inferred, with the config it becomes. */
export interface PreparedImport {
  /** The file as the user named it (for messages) and its absolute path (the import marker's key). */
  source: string;
  path: string;
  sha256: string;
  plan: ImportPlan;
  config: RestwellConfig;
  configFile: string;
  /** The config file's text: YAML, or JSON for a `.json` file. */
  configText: string;
}

/** `db.json` → `db.restwell.yaml`, next to it. */
export function defaultConfigFile(file: string): string {
  return join(dirname(file), `${basename(file, extname(file))}.restwell.yaml`);
}

/**
 * Reads a json-server data file and infers what it becomes; throws ImportError with one clear
 * line when it cannot be read, is not JSON, or does not have json-server's shape.
 */
export function prepareImport(file: string, options: { config?: string; db?: string; port?: number; host?: string }): PreparedImport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ImportError([`cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`], file);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ImportError([`it is not valid JSON: ${(err as Error).message}`], file);
  }
  const plan = inferImport(data, file);
  if (!plan.collections.length) throw new ImportError(['it holds no collection (no member is an array of objects)'], file);
  const configFile = options.config ?? defaultConfigFile(file);
  // A .json config is read as JSON (config/load.ts), so it is written as JSON.
  const configText = extname(configFile) === '.json' ? `${JSON.stringify({ resources: plan.resources }, null, 2)}\n` : importConfigYaml(plan, basename(file));
  let config: RestwellConfig;
  try {
    config = resolveConfig({ resources: plan.resources }, { env: process.env, overrides: { database: options.db, port: options.port, host: options.host } }, configFile);
  } catch (err) {
    // What the config's own checks refuse (a collection named like a path the server serves) is the file's problem.
    if (err instanceof ConfigError) throw new ImportError(err.problems.map((p) => p.replace(/^resources\.([^:]+): /, '$1: ')), file);
    throw err;
  }
  return { source: file, path: resolve(file), sha256: createHash('sha256').update(text).digest('hex'), plan, config, configFile, configText };
}

/** What was inferred, a line per collection, for stderr. */
export function describePlan(prepared: PreparedImport): string {
  const lines = [`${prepared.source}: ${prepared.plan.collections.length} collection(s) inferred (config: ${prepared.configFile})`];
  for (const [name, r] of Object.entries(prepared.plan.resources)) {
    const rows = prepared.plan.collections.find((c) => c.name === name)!.rows.length;
    const fields = Object.entries(r.fields).map(([f, c]) => `${f} ${c.type === 'reference' ? `→ ${c.to}` : c.type}${c.required ? '*' : ''}`);
    lines.push(`  ${name} (${rows} row${rows === 1 ? '' : 's'}, ${r.id ?? 'integer'} ids): ${fields.join(', ') || 'no fields'}`);
  }
  if (Object.values(prepared.plan.resources).some((r) => Object.values(r.fields).some((f) => f.required))) lines.push('  (* required: every row has a value)');
  for (const note of prepared.plan.notes) lines.push(`  note: ${note}`);
  return `${lines.join('\n')}\n`;
}

/** True when the config file exists with other content than `text` (so writing it would lose edits). */
export function configFileDiffers(file: string, text: string): boolean {
  return existsSync(file) && readFileSync(file, 'utf8') !== text;
}

/** Writes the config file whole or not at all (a temporary file renamed over it). */
export function writeConfigFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
