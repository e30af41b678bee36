import { resolveOptions } from './options.js';
import { Subscribers } from './subscribers.js';
import { Transport } from './transport.js';
import type { WaitlistClientOptions } from './types.js';
import { type Webhooks, webhooks } from './webhooks/index.js';

/**
 * The customer API of the waitlist service. Construction checks the options, the API key's
 * format and checksum included, and sends nothing.
 *
 * ```ts
 * const client = new WaitlistClient({ apiKey: process.env.WAITLIST_API_KEY!, baseUrl: 'https://api.example.com' });
 * const page = await client.subscribers.list('wl_123', { q: '@example.com' });
 * ```
 */
export class WaitlistClient {
  readonly subscribers: Subscribers;
  /**
   * Verifying and reading the service's webhook deliveries. The same object as the package's
   * `webhooks` export, which needs no client (nor API key) at all.
   */
  readonly webhooks: Webhooks = webhooks;

  constructor(options: WaitlistClientOptions) {
    this.subscribers = new Subscribers(new Transport(resolveOptions(options)));
  }
}
