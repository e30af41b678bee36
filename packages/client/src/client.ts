import type { FieldValues } from '@waitlistkit/protocol';
import { resolveOptions } from './options.js';
import { readStats, type StatsParams, type StatsResult } from './stats.js';
import { Subscribers } from './subscribers.js';
import { Transport } from './transport.js';
import type { RequestOptions, WaitlistClientOptions } from './types.js';
import { type Webhooks, webhooks } from './webhooks/index.js';

/**
 * The customer API of the waitlist service. Construction checks the options, the API key's
 * format and checksum included, and sends nothing.
 *
 * ```ts
 * const client = new WaitlistClient({ apiKey: process.env.WAITLIST_API_KEY!, baseUrl: 'https://api.example.com' });
 * const page = await client.subscribers.list('wl_123', { q: '@example.com' });
 * ```
 *
 * `F` types the subscribers' `fields` (docs/subscribers.md#fields): with
 * `new WaitlistClient<{ company: string; consent: boolean }>(…)`, `subscriber.fields.company` is a
 * `string | undefined`, no cast needed.
 */
export class WaitlistClient<F extends FieldValues = FieldValues> {
  readonly subscribers: Subscribers<F>;
  /**
   * Verifying and reading the service's webhook deliveries. The same object as the package's
   * `webhooks` export, which needs no client (nor API key) at all.
   */
  readonly webhooks: Webhooks = webhooks;
  readonly #transport: Transport;

  constructor(options: WaitlistClientOptions) {
    this.#transport = new Transport(resolveOptions(options));
    this.subscribers = new Subscribers<F>(this.#transport);
  }

  /**
   * How the launch is going (docs/insights.md#stats): views, sign-ups, confirmations, referred
   * sign-ups and admissions per UTC day, views and sign-ups per channel, and the totals
   * (conversion, referred share, k-factor; `null` without a divisor). A range the service
   * refuses (not calendar days, reversed, over 366 days) is an `InvalidRequestError` naming it.
   */
  stats(waitlistId: string, params: StatsParams = {}, options?: RequestOptions): Promise<StatsResult> {
    return readStats(this.#transport, waitlistId, params, options);
  }
}
