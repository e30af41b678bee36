/** The client's options, checked once at construction so that mistakes surface before any request. */
import { parseApiKey } from '@waitlistkit/protocol';
import { InvalidApiKeyError } from './errors.js';
import { checkIdempotencyKey } from './idempotency.js';
import { type Sleep, sleep } from './retry.js';
import type { PostRequestOptions, TransportConfig, WaitlistClientOptions } from './types.js';

export const DEFAULT_TIMEOUT = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_AFTER = 60_000;
// The largest delay setTimeout honours; anything above fires at once.
const MAX_TIMER = 2 ** 31 - 1;

/**
 * Not exported from the package. Tests put a `Clock` under this key of the options to observe
 * retry waits and fix the jitter instead of sleeping through real backoff.
 */
export const clock = Symbol('waitlistkit.client.clock');
export interface Clock {
  sleep: Sleep;
  random: () => number;
}

function checkNumber(name: string, value: unknown, min: number, max: number, integer: boolean): number {
  if (typeof value !== 'number' || Number.isNaN(value) || (integer && !Number.isInteger(value))) {
    throw new TypeError(`\`${name}\` must be ${integer ? 'an integer' : 'a number'}, not ${String(value)}.`);
  }
  if (value < min || value > max) {
    throw new RangeError(`\`${name}\` must be from ${min} to ${max}, not ${value}.`);
  }
  return value;
}

/**
 * Per-call overrides, checked like the constructor's. Their names are checked by each method
 * (arguments.ts), which knows whether `idempotencyKey` applies.
 */
export function checkRequestOptions(options: PostRequestOptions): void {
  if (options.timeout !== undefined) checkNumber('timeout', options.timeout, 1, MAX_TIMER, false);
  if (options.maxRetries !== undefined) {
    checkNumber('maxRetries', options.maxRetries, 0, Number.MAX_SAFE_INTEGER, true);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new TypeError('`signal` must be an AbortSignal.');
  }
  if (options.idempotencyKey !== undefined) checkIdempotencyKey(options.idempotencyKey);
}

function resolveBaseUrl(value: unknown): string {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw new TypeError(
      '`baseUrl` must be the absolute address of the service, e.g. "https://api.example.com".',
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`\`baseUrl\` is not an absolute URL: "${String(value)}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`\`baseUrl\` must be an http or https address, not ${url.protocol}.`);
  }
  // fetch refuses such URLs anyway; saying so here names the option. The API key authenticates.
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('`baseUrl` must not contain a user name or password.');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError('`baseUrl` must not contain a query or a fragment.');
  }
  // ky appends each path to this prefix; a trailing slash keeps a base path such as `/waitlist`.
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

export function resolveOptions(options: WaitlistClientOptions): TransportConfig {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('WaitlistClient needs an options object with `apiKey` and `baseUrl`.');
  }
  const key = parseApiKey(options.apiKey);
  if (!key.ok) throw new InvalidApiKeyError(key.problem, key.message);
  const time = (options as { [clock]?: Clock })[clock];
  const fetch = options.fetch;
  if (fetch !== undefined && typeof fetch !== 'function') throw new TypeError('`fetch` must be a function.');
  return {
    apiKey: key.value,
    baseUrl: resolveBaseUrl(options.baseUrl),
    timeout: checkNumber('timeout', options.timeout ?? DEFAULT_TIMEOUT, 1, MAX_TIMER, false),
    maxRetries: checkNumber(
      'maxRetries',
      options.maxRetries ?? DEFAULT_MAX_RETRIES,
      0,
      Number.MAX_SAFE_INTEGER,
      true,
    ),
    maxRetryAfter: checkNumber(
      'maxRetryAfter',
      options.maxRetryAfter ?? DEFAULT_MAX_RETRY_AFTER,
      0,
      MAX_TIMER,
      false,
    ),
    fetch,
    sleep: time?.sleep ?? sleep,
    random: time?.random ?? Math.random,
  };
}
