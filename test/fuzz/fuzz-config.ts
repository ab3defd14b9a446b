import { DEMO_CONFIG } from '../../src/config/defaults.js';
import { TEST_DEMO_SECRETS } from '../../src/test-support/test-server.js';

/** Secrets of the webhook sources the fuzzer signs for (literal, so the runner can sign too). */
export const FUZZ_SECRETS = {
  ...TEST_DEMO_SECRETS,
  standard: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  github: 'fuzz-github-secret',
  stripe: 'whsec_fuzz_stripe_secret',
  mailgun: 'key-fuzz-mailgun-signing-key',
  fan: 'fuzz-fan-token',
};

// Rate limits would turn most of a long run into 429s and hide everything behind them.
const unmetered = { limit: 1_000_000_000, window: '1m' };

/**
 * The config the fuzzer attacks: the demo (characters: public read, scoped write; messages: scoped),
 * `notes` restricted to their owners with a field of every type, `ledgers` that require If-Match,
 * one webhook source per signing scheme, and `fan`, whose store action puts each payload in four
 * fields. The record limit is below the body limit, so writes whose result outgrows their body reach it.
 */
export const FUZZ_CONFIG = {
  server: { recordLimit: '512kb' },
  auth: { rateLimit: false },
  resources: {
    ...DEMO_CONFIG.resources,
    notes: {
      id: 'uuid',
      fields: {
        text: { type: 'string', required: true, maxLength: 500 },
        pinned: { type: 'boolean', default: false },
        rating: { type: 'integer', minimum: 0, maximum: 10, index: true },
        weight: { type: 'number', minimum: -1000, maximum: 1000 },
        due: { type: 'datetime' },
        tags: { type: 'json' },
        mood: { type: 'enum', values: ['calm', 'busy', 'ünïcode'] },
        character: { type: 'reference', to: 'characters' },
        code: { type: 'string', pattern: '^[A-Z]{3}$', minLength: 3 },
      },
      access: { read: 'owner', write: 'owner' },
    },
    ledgers: {
      fields: { amount: { type: 'integer', required: true }, memo: { type: 'string', unique: true } },
      requireIfMatch: true,
      access: { read: 'public', write: 'public' },
    },
  },
  webhooks: {
    sources: {
      mail: { ...DEMO_CONFIG.webhooks.sources.mail, verify: { username: FUZZ_SECRETS.MAIL_HOOK_USER, password: FUZZ_SECRETS.MAIL_HOOK_PASSWORD }, rateLimit: unmetered },
      sms: { ...DEMO_CONFIG.webhooks.sources.sms, verify: { authToken: FUZZ_SECRETS.TWILIO_AUTH_TOKEN }, rateLimit: unmetered },
      events: { provider: 'standard-webhooks', verify: { secret: FUZZ_SECRETS.standard }, actions: [{ emit: true }], rateLimit: unmetered },
      github: { provider: 'github', verify: { secret: FUZZ_SECRETS.github }, rateLimit: unmetered },
      stripe: { provider: 'stripe', verify: { secret: FUZZ_SECRETS.stripe }, rateLimit: unmetered },
      mailgun: { provider: 'mailgun', verify: { secret: FUZZ_SECRETS.mailgun }, actions: [{ store: 'messages', map: { subject: 'subject', from: 'from', text: 'text' } }], rateLimit: unmetered },
      fan: { provider: 'generic', verify: { header: 'x-fan-token', secret: FUZZ_SECRETS.fan }, actions: [{ store: 'messages', map: { to: 'payload', attachments: 'payload', text: 'payload', html: 'payload' } }], rateLimit: unmetered },
    },
  },
};
