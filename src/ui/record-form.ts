import type { FieldDefinition, ResourceDefinition } from '../core/resource.js';
import { escapeHtml } from './html.js';

/** What a write form needs beyond the resource: the record it edits, and reference targets' id types. */
export interface RecordFormOptions {
  /** The record being edited (its plain members); absent for the create form. */
  record?: Record<string, unknown>;
  /** The record's path, for PUT, PATCH and DELETE. */
  recordPath?: string;
  /** The ETag the browse script sends as If-Match (the one of the JSON representation it asks for). */
  etag?: string;
  /** The id type of a reference field's target resource. */
  idTypeOf: (field: FieldDefinition) => ResourceDefinition['idType'];
}

/**
 * The form of a collection (POST a new record) or of a record (PUT or PATCH it, and DELETE it):
 * one labelled input per declared field, typed from the resource definition. The browse script
 * submits it with fetch (forms cannot send PUT, PATCH, DELETE or a bearer token) and shows the
 * problem of a failed write, with each `errors[]` entry beside its field.
 */
export function renderRecordForm(resource: ResourceDefinition, options: RecordFormOptions): string {
  const { record } = options;
  const editing = record !== undefined;
  const action = editing ? options.recordPath! : `/${resource.name}`;
  const original = editing ? Object.fromEntries(resource.fields.map((f) => [f.name, record[f.name] ?? null])) : {};
  const inputs = resource.fields.map((f) => fieldRow(f, editing ? record[f.name] : f.default, editing, options)).join('\n');
  const buttons = editing
    ? `<button type="submit" value="PUT">Replace (PUT)</button> <button type="submit" value="PATCH">Update changed fields (PATCH)</button>`
    : `<button type="submit" value="POST">Create (POST)</button>`;
  const form = `<form class="rw-write" id="rw-${editing ? 'edit' : 'create'}" data-action="${escapeHtml(action)}"${
    editing ? ` data-etag="${escapeHtml(options.etag ?? '')}" data-original="${escapeHtml(JSON.stringify(original))}" data-collection="/${escapeHtml(resource.name)}"` : ''
  }>
<div class="rw-status" role="alert" data-status></div>
${inputs}
<p class="rw-buttons">${buttons}</p>
</form>`;
  const remove = editing
    ? `<form class="rw-delete" data-action="${escapeHtml(action)}" data-etag="${escapeHtml(options.etag ?? '')}" data-collection="/${escapeHtml(resource.name)}">
<div class="rw-status" role="alert" data-status></div>
<p><button type="submit" class="danger" value="DELETE">Delete this record (DELETE)</button></p></form>`
    : '';
  const heading = editing ? `Edit this ${escapeHtml(resource.name)} record` : `Create a ${escapeHtml(resource.name)} record`;
  return `<section class="rw-forms"><h2>${heading}</h2>
<p class="hint">Fields marked <abbr title="required">*</abbr> are required. Writes send the token saved above as a bearer header${editing ? ', and If-Match with the ETag of the version shown' : ''}.</p>
${form}${remove}</section>`;
}

function fieldRow(f: FieldDefinition, value: unknown, editing: boolean, options: RecordFormOptions): string {
  const id = `f-${f.name}`;
  // A required field with a default may be left out of a POST: the server fills it in.
  const required = f.required && (editing || f.default === undefined);
  const label = `<label for="${id}">${escapeHtml(f.name)}${required ? ' <abbr title="required">*</abbr>' : ''} <small>${escapeHtml(typeLabel(f))}</small></label>`;
  const common = `id="${id}" name="${escapeHtml(f.name)}" data-field="${escapeHtml(f.name)}" data-type="${f.type}" aria-describedby="${id}-error"${required ? ' required' : ''}`;
  const help = f.description ? `<small class="help">${escapeHtml(f.description)}</small>` : '';
  return `<div class="rw-field">${label}${control(f, value, common, options)}${help}<span class="rw-error" id="${id}-error" data-error-for="${escapeHtml(f.name)}"></span></div>`;
}

function typeLabel(f: FieldDefinition): string {
  if (f.type === 'reference') return `reference to ${f.to}`;
  if (f.type === 'datetime') return 'datetime (UTC)';
  return f.type;
}

function control(f: FieldDefinition, value: unknown, common: string, options: RecordFormOptions): string {
  const has = value !== undefined && value !== null;
  const text = has ? (typeof value === 'string' ? value : JSON.stringify(value)) : '';
  const v = ` value="${escapeHtml(text)}"`;
  switch (f.type) {
    case 'integer':
    case 'number':
      return `<input type="number" ${common} step="${f.type === 'integer' ? '1' : 'any'}"${f.minimum !== undefined ? ` min="${f.minimum}"` : ''}${f.maximum !== undefined ? ` max="${f.maximum}"` : ''}${v}>`;
    case 'boolean':
      return `<select ${common}>${option('', '(not set)', '')}${option('true', 'true', has ? String(value) : '')}${option('false', 'false', has ? String(value) : '')}</select>`;
    case 'enum':
      return `<select ${common}>${option('', '(not set)', text)}${(f.values ?? []).map((e) => option(e, e, text)).join('')}</select>`;
    case 'datetime':
      // datetime-local has no zone: the page shows and takes UTC, the script appends the Z.
      return `<input type="datetime-local" step="1" ${common}${has ? ` value="${escapeHtml(localUtc(String(value)))}"` : ''}>`;
    case 'json':
      return `<textarea ${common} rows="4" spellcheck="false" placeholder="any JSON value">${escapeHtml(has ? JSON.stringify(value, null, 2) : '')}</textarea>`;
    case 'reference': {
      const numeric = options.idTypeOf(f) === 'integer';
      return `<span class="rw-ref"><input type="${numeric ? 'number' : 'text'}" ${common} data-id-type="${escapeHtml(options.idTypeOf(f))}"${numeric ? ' step="1" min="1"' : ''}${v}> <a href="/${escapeHtml(f.to ?? '')}">browse ${escapeHtml(f.to ?? '')}</a></span>`;
    }
    default:
      // No client-side pattern: the server's 422 names the rule, in the same words for every client.
      return `<input type="text" ${common}${f.maxLength !== undefined ? ` maxlength="${f.maxLength}"` : ''}${v}>`;
  }
}

function option(value: string, label: string, selected: string): string {
  return `<option value="${escapeHtml(value)}"${value === selected && value !== '' ? ' selected' : ''}>${escapeHtml(label)}</option>`;
}

/** An ISO timestamp as a datetime-local value in UTC (`2024-05-01T12:30:00`). */
function localUtc(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 19);
}
