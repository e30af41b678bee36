import { resolveOptions } from './options.js';
import { Subscribers } from './subscribers.js';
import { Transport } from './transport.js';
import type { WaitlistClientOptions } from './types.js';

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

  constructor(options: WaitlistClientOptions) {
    this.subscribers = new Subscribers(new Transport(resolveOptions(options)));
  }
}
