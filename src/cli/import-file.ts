import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { ImportError } from '../json-server/import/import-error.js';
import { inferImport, type ImportPlan } from '../json-server/import/infer-resources.js';
import { importConfigYaml } from '../json-server/import/import-config-yaml.js';
import { placeInFile } from '../json-server/import/place-in-file.js';
import { ConfigError, resolveConfig } from '../config/load.js';
import type { RestwellConfig } from '../config/types.js';
import { describeJsonHazard } from '../core/json-hazards.js';
import { pointerAtOffset } from '../core/json-members.js';
import { decodeUtf8, JsonTextError, parseStrictJson } from '../core/strict-json.js';

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
 * line when it cannot be read, is not JSON, or does not have json-server's shape. The file is
 * held to what a request body is (UTF-8, I-JSON: no lone surrogate, no repeated member name),
 * and a line about a row names its collection, index and id.
 */
export function prepareImport(file: string, options: { config?: string; db?: string; port?: number; host?: string }): PreparedImport {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new ImportError([`cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`], file);
  }
  const data = readDataFile(bytes, file);
  const plan = inferImport(data, file);
  if (!plan.collections.length) throw new ImportError(['it holds nothing to serve (no member is an array of objects, or an object)'], file);
  const configFile = options.config ?? defaultConfigFile(file);
  // A .json config is read as JSON (config/load.ts), so it is written as JSON.
  const configText = extname(configFile) === '.json' ? `${JSON.stringify({ compat: 'json-server', resources: plan.resources }, null, 2)}\n` : importConfigYaml(plan, basename(file));
  let config: RestwellConfig;
  try {
    config = resolveConfig({ compat: 'json-server', resources: plan.resources }, { env: process.env, overrides: { database: options.db, port: options.port, host: options.host } }, configFile);
  } catch (err) {
    // What the config's own checks refuse (a collection named like a path the server serves) is the file's problem.
    if (err instanceof ConfigError) throw new ImportError(err.problems.map((p) => p.replace(/^resources\.([^:]+): /, '$1: ')), file);
    throw err;
  }
  return { source: file, path: resolve(file), sha256: createHash('sha256').update(bytes).digest('hex'), plan, config, configFile, configText };
}

/** The parsed file; an ImportError naming the place (collection, row, member) of what it cannot be. */
function readDataFile(bytes: Buffer, file: string): unknown {
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch (err) {
    if (!(err instanceof JsonTextError && err.utf8)) throw err;
    throw new ImportError([`${badBytesPlace(err.utf8.text, err.utf8.charOffset)} ${err.message}`], file);
  }
  try {
    return parseStrictJson(text);
  } catch (err) {
    if (!(err instanceof JsonTextError)) throw err;
    if (!err.hazard) throw new ImportError([`it ${err.message}`], file);
    // The text is JSON (only its content was refused), so the place can be named by row and id.
    throw new ImportError([`${placeInFile(JSON.parse(text), err.hazard.pointer)} ${describeJsonHazard(err.hazard, Infinity)}`], file);
  }
}

/** Where bad bytes are, when the file is JSON once they read as U+FFFD (they are inside a string). */
function badBytesPlace(text: string, offset: number): string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return 'it';
  }
  return placeInFile(data, pointerAtOffset(text, offset));
}

/** What was inferred, a line per collection, for stderr. */
export function describePlan(prepared: PreparedImport): string {
  const lines = [`${prepared.source}: ${prepared.plan.collections.length} resource(s) inferred (config: ${prepared.configFile})`];
  for (const [name, r] of Object.entries(prepared.plan.resources)) {
    const rows = prepared.plan.collections.find((c) => c.name === name)!.rows.length;
    const fields = Object.entries(r.fields).map(([f, c]) => `${f} ${c.type === 'reference' ? `→ ${c.to}` : c.type}${c.required ? '*' : ''}`);
    const shape = r.singular ? 'singular object' : `${rows} row${rows === 1 ? '' : 's'}, ${r.id ?? 'integer'} ids`;
    lines.push(`  ${name} (${shape}): ${fields.join(', ') || 'no fields'}`);
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
