/**
 * The body could not be understood as the provider's format.
 * `message` is safe to show to the sender (it names the field, never echoes secrets).
 */
export class PayloadError extends Error {
  override name = 'PayloadError';
  constructor(
    message: string,
    /** The provider whose format was expected, when known. */
    readonly provider?: string,
  ) {
    super(message);
  }
}
