import type { FieldDefinition } from '../../../core/resource.js';
import type { StoreAction } from '../sources.js';
import { valueAt } from './message-view.js';

/** Makes a message value fit a field, so a natural mapping (e.g. a list of addresses into a string) just works. */
function coerce(field: FieldDefinition, value: unknown): unknown {
  switch (field.type) {
    case 'string':
    case 'enum':
      if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
      if (value !== null && typeof value === 'object') return JSON.stringify(value);
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
    case 'integer':
    case 'number':
      return typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    default:
      return value;
  }
}

/**
 * The validated field data of the record a delivery becomes. Without a `map`, every field whose
 * name the message has is taken (e-mail: from, to, cc, subject, text, html, date, messageId,
 * headers, attachments, receivedAt; SMS: from, to, text, messageId, receivedAt). Empty values are
 * left out so field defaults apply. Throws ValidationError when the record breaks the resource's rules.
 */
export function recordFromMessage(action: StoreAction, view: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of action.resource.fields) {
    const value = action.map ? (action.map[field.name] ? valueAt(view, action.map[field.name]!) : undefined) : view[field.name];
    if (value === undefined || value === null || value === '') continue;
    data[field.name] = coerce(field, value);
  }
  return action.validator.prepare(data);
}
