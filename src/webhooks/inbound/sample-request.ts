import { randomUUID } from 'node:crypto';
import { ConfigError } from '../../config/load.js';
import type { WebhookSourceConfig } from '../../config/types.js';
import { FORM_TYPE, JSON_TYPE, MULTIPART_TYPE } from './payload/parse-payload.js';
import type { ProviderDescriptor, SampleBody } from './providers/provider-descriptor.js';
import { PROVIDERS } from './providers/registry.js';
import { compactJsonBody } from './providers/samples.js';
import { sourceSigning } from './sources.js';
import {
  signBasicAuth, signGithub, signMailgun, signStandardWebhooks, signStripe, signTwilio, signVonage, type VerifyConfig, type VerifyOptions,
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
  /** Where the source's config came from (its file), named when the source is unusable. */
  origin?: string;
}

function sampleBody(provider: ProviderDescriptor, o: SampleOptions, signedFields: Record<string, string>): SampleBody {
  if (o.body) {
    // A file cannot carry a multipart boundary, so its default type is the provider's first other one.
    const contentType = o.contentType ?? provider.contentTypes.find((t) => t !== MULTIPART_TYPE) ?? JSON_TYPE;
    const params = contentType.startsWith(FORM_TYPE) ? Object.fromEntries(new URLSearchParams(o.body.toString('utf8'))) : undefined;
    return { contentType, body: o.body, params };
  }
  return provider.sample({ text: o.text, signedFields });
}

/**
 * A realistic delivery for a configured source, signed with the source's own secrets the way its
 * provider signs (what `restwell hooks send` posts, like `stripe trigger`). `baseUrl` is where the
 * server listens; Twilio signatures cover `verify.publicUrl` when the source sets one.
 */
export function sampleRequest(
  sourceName: string,
  source: WebhookSourceConfig,
  baseUrl: string,
  o: SampleOptions = {},
  providers: readonly ProviderDescriptor[] = PROVIDERS,
): SampleRequest {
  const { provider, scheme, problems } = sourceSigning(source, providers);
  if (!provider || !scheme) throw new ConfigError(problems.map((p) => `webhooks.sources.${sourceName}.${p}`), o.origin ?? 'config');
  const verify = source.verify as VerifyConfig;
  const opts: VerifyOptions = verify === 'none' ? {} : verify;
  const url = `${baseUrl.replace(/\/$/, '')}/webhooks/${sourceName}`;
  // Mailgun signs inside the body, so its signature fields go in before the body is encoded.
  const signedFields = scheme === 'mailgun' ? signMailgun(opts.secret!) : {};
  let sample = sampleBody(provider, o, signedFields);
  if (scheme === 'vonage-signature' && sample.params) {
    sample = compactJsonBody(signVonage(sample.params, opts.secret!, opts.algorithm));
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
