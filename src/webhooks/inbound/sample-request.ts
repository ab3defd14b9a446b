import { randomUUID } from 'node:crypto';
import type { WebhookSourceConfig } from '../../config/types.js';
import {
  isProviderName, sampleCloudmailinEmail, sampleMailgunEmail, samplePostmarkEmail, sampleSendgridEmail, sampleTwilioSms,
  sampleVonageSms, type EncodedBody, type ProviderName,
} from './providers/index.js';
import {
  schemeFor, signBasicAuth, signGithub, signMailgun, signStandardWebhooks, signStripe, signTwilio, signVonage, type VerifyConfig,
  type VerifyOptions,
} from './verifiers/index.js';

/** A ready-to-send, correctly signed request. */
export interface SampleRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** What to put in the sample: a message text, or a whole body from a file. */
export interface SampleOptions {
  text?: string;
  /** A complete provider payload (JSON, or a form for form-posting providers); signed as is. */
  body?: Buffer;
  /** Content-Type of `body`; default the provider's usual one. */
  contentType?: string;
}

const json = (v: unknown): EncodedBody => ({ contentType: 'application/json', body: Buffer.from(JSON.stringify(v)) });

function sampleBody(provider: ProviderName, o: SampleOptions, mailgunFields: Record<string, string>): EncodedBody & { params?: Record<string, string> } {
  if (o.body) {
    const contentType = o.contentType ?? (provider === 'twilio' || provider === 'mailgun' ? 'application/x-www-form-urlencoded' : 'application/json');
    const params = contentType.startsWith('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(o.body.toString('utf8'))) : undefined;
    return { contentType, body: o.body, params };
  }
  const text = o.text;
  switch (provider) {
    case 'postmark':
      return samplePostmarkEmail({ text, subject: text });
    case 'sendgrid':
      return sampleSendgridEmail({ text, subject: text });
    case 'mailgun':
      return sampleMailgunEmail({ text, subject: text }, mailgunFields);
    case 'cloudmailin':
      return sampleCloudmailinEmail({ text, subject: text });
    case 'twilio':
      return sampleTwilioSms({ text });
    case 'vonage':
      return sampleVonageSms({ text });
    case 'stripe':
      return json({ id: `evt_${randomUUID().replace(/-/g, '')}`, object: 'event', type: 'restwell.test', created: Math.floor(Date.now() / 1000), data: { object: { text: text ?? 'Hello' } } });
    default:
      return json({ type: 'restwell.test', timestamp: new Date().toISOString(), data: { text: text ?? 'Hello' } });
  }
}

/**
 * A realistic delivery for a configured source, signed with the source's own secrets the way its
 * provider signs (what `restwell hooks send` posts, like `stripe trigger`). `baseUrl` is where the
 * server listens; Twilio signatures cover `verify.publicUrl` when the source sets one.
 */
export function sampleRequest(sourceName: string, source: WebhookSourceConfig, baseUrl: string, o: SampleOptions = {}): SampleRequest {
  if (!isProviderName(source.provider)) throw new Error(`source ${sourceName} has an unknown provider "${source.provider}"`);
  const provider = source.provider;
  const verify = source.verify as VerifyConfig;
  const scheme = schemeFor(provider, verify);
  const opts: VerifyOptions = verify === 'none' ? {} : verify;
  const url = `${baseUrl.replace(/\/$/, '')}/webhooks/${sourceName}`;
  const mailgunFields = scheme === 'mailgun' ? signMailgun(opts.secret!) : {};
  let sample = sampleBody(provider, o, mailgunFields);
  if (scheme === 'vonage-signature' && sample.params) {
    sample = { ...json(signVonage(sample.params, opts.secret!, opts.algorithm)) };
  }
  const headers: Record<string, string> = { 'content-type': sample.contentType, 'user-agent': 'restwell-hooks-send' };
  let target = url;
  switch (scheme) {
    case 'basic':
      headers.authorization = signBasicAuth(opts.username!, opts.password!);
      break;
    case 'header':
      headers[opts.header!.toLowerCase()] = opts.secret!;
      break;
    case 'standard-webhooks':
      Object.assign(headers, signStandardWebhooks({ secret: opts.secret!, id: `msg_${randomUUID().replace(/-/g, '')}`, body: sample.body }));
      break;
    case 'github':
      Object.assign(headers, { 'x-hub-signature-256': signGithub(opts.secret!, sample.body), 'x-github-delivery': randomUUID(), 'x-github-event': 'ping' });
      break;
    case 'stripe':
      headers['stripe-signature'] = signStripe(opts.secret!, sample.body);
      break;
    case 'twilio': {
      const signedUrl = opts.publicUrl ?? url;
      const isJson = sample.contentType.startsWith('application/json');
      const signed = signTwilio({ authToken: opts.authToken!, url: signedUrl, ...(isJson ? { jsonBody: sample.body } : { params: sample.params ?? {} }) });
      headers['x-twilio-signature'] = signed.signature;
      // A JSON body is signed through ?bodySHA256= in the URL, which must then be posted to as well.
      if (isJson) target = url + signed.url.slice(signedUrl.length);
      break;
    }
    default:
      break;
  }
  return { url: target, headers, body: sample.body };
}
