import type { ProblemCode } from '../../../http/problems.js';
import type { EncodedBody } from '../payload/form-body.js';
import type { HeaderMap, SigningScheme } from '../verifiers/index.js';
import type { NormalizeResult } from './types.js';

/** A sample body for `restwell hooks send`; `params` are its parameters when a scheme signs them (Twilio, Vonage). */
export type SampleBody = EncodedBody & { params?: Record<string, string> };

/** What `restwell hooks send` asks of a provider's sample. */
export interface SampleInput {
  /** The message text the user gave, if any. */
  text?: string;
  /** Fields a scheme signs inside the body (Mailgun's timestamp, token and signature), for providers that post forms. */
  signedFields: Record<string, string>;
}

/** How the answer to an accepted delivery is written when the provider reads a reply in it. */
export interface ReplyFormat {
  /** Content-Type of the answer. */
  contentType: string;
  /** The answer's body: the reply action's text, or none (the provider then sends nothing back). */
  body(replyText: string | undefined): string;
  /** What the answer is, for the OpenAPI document. */
  description: string;
}

/** What a start-up warning looks at in a compiled source. */
export interface WarnedSource {
  name: string;
  /** True when the source has a reply action. */
  replies: boolean;
}

/**
 * Everything Restwell knows of one webhook provider. One file per provider exports one of these,
 * and the list in `registry.ts` makes it usable in `webhooks.sources.<name>.provider`.
 */
export interface ProviderDescriptor {
  /** The name a source gives in `provider:` (lower case, `-` between words). */
  readonly name: string;
  /** What its deliveries usually carry; only `sms` providers can take a reply action. */
  readonly kind: 'email' | 'sms' | 'event';
  /** Verification schemes it supports, preferred first: a source uses the first whose keys its verify config has. */
  readonly schemes: readonly SigningScheme[];
  /** Media types it posts; anything else is answered 415 before it is stored, since it cannot be a genuine delivery. */
  readonly contentTypes: readonly string[];
  /**
   * Turns a verified body (of one of `contentTypes`) into an e-mail, SMS or event. Throws PayloadError
   * for a body it cannot read; JSON deeper than `maxDepth` must be refused (parseJson does).
   */
  normalize(contentType: string, rawBody: Buffer, maxDepth: number): NormalizeResult;
  /**
   * The provider's own id for a delivery, which de-duplicates redeliveries; undefined when it gives none.
   * `payload` is the parsed JSON or the form fields (first values), undefined when `eventIdInHeaders`
   * let the caller skip parsing the body.
   */
  eventId(headers: HeaderMap, payload: unknown): string | undefined;
  /** True when `eventId` reads headers alone, so the body need not be parsed for it. */
  readonly eventIdInHeaders?: boolean;
  /** A realistic delivery body for `restwell hooks send`, before the scheme signs it. */
  sample(input: SampleInput): SampleBody;
  /** How an accepted delivery is answered when the provider reads a reply there (Twilio's TwiML); absent: `{received, id}` JSON and no reply. */
  readonly reply?: ReplyFormat;
  /** The problem that tells the provider not to retry a genuine delivery that can never be processed; default `webhook-payload-invalid` (422). */
  readonly rejection?: ProblemCode;
  /** Warnings to log at start-up about a source using this provider. */
  warnings?(source: WarnedSource): string[];
}
