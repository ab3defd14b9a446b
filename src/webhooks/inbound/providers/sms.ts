import { isObject, str } from './email-helpers.js';
import { PayloadError, type NormalizedSms } from './types.js';

/** Twilio Messaging webhook fields (form-encoded, or the same names in JSON) → normalized SMS. */
export function normalizeTwilio(fields: Record<string, unknown>): NormalizedSms {
  const from = str(fields.From);
  if (!from) throw new PayloadError('a Twilio message webhook needs a From field', 'twilio');
  return {
    from,
    to: str(fields.To),
    text: str(fields.Body),
    messageId: str(fields.MessageSid) || str(fields.SmsSid) || null,
  };
}

/**
 * Vonage inbound SMS (SMS API: msisdn, to, text, messageId) or Messages API
 * (from, to, text, message_uuid; `from` may be an object with `number`) → normalized SMS.
 */
export function normalizeVonage(fields: Record<string, unknown>): NormalizedSms {
  const fromField = isObject(fields.from) ? fields.from.number : fields.from;
  const toField = isObject(fields.to) ? fields.to.number : fields.to;
  const from = str(fields.msisdn) || str(fromField);
  if (!from) throw new PayloadError('a Vonage inbound SMS needs msisdn (SMS API) or from (Messages API)', 'vonage');
  const message = isObject(fields.message) && isObject(fields.message.content) ? fields.message.content.text : undefined;
  return {
    from,
    to: str(toField),
    text: str(fields.text) || str(message),
    messageId: str(fields.messageId) || str(fields.message_uuid) || null,
  };
}
