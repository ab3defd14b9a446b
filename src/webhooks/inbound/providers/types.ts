/** An e-mail attachment with its content inline. */
export interface EmailAttachment {
  /** File name as the sender gave it (may be empty). */
  name: string;
  /** Media type, `application/octet-stream` when the provider does not say. */
  type: string;
  /** Size in bytes of the decoded content. */
  size: number;
  /** Content, base64. Empty when the provider only gave a `url` (CloudMailin attachment store). */
  content: string;
  /** Where the provider stored the file instead of inlining it. */
  url?: string;
  /** Content-ID for inline images, without angle brackets. */
  contentId?: string;
}

/** One inbound e-mail, whichever provider delivered it. */
export interface NormalizedEmail {
  /** Sender as in the From header: `Name <addr>` or `addr`. */
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  /** Plain-text body ('' when absent). */
  text: string;
  /** HTML body ('' when absent). */
  html: string;
  /** The Date header as ISO 8601, or null when absent or unparseable. */
  date: string | null;
  /** Message-ID header value (angle brackets kept as sent), or null. */
  messageId: string | null;
  /** Headers with lower-cased names; repeated headers joined with a newline. */
  headers: Record<string, string>;
  attachments: EmailAttachment[];
}

/** One inbound SMS. */
export interface NormalizedSms {
  from: string;
  to: string;
  text: string;
  messageId: string | null;
}

/** What {@link normalize} makes of a delivery. */
export type NormalizeResult =
  | { kind: 'email'; email: NormalizedEmail }
  | { kind: 'sms'; sms: NormalizedSms }
  | { kind: 'event'; payload: unknown };
