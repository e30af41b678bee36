/**
 * The client's types in a file of their own, as ky keeps its types apart: the modules that use
 * them (options, transport, subscribers) import these and not each other, so no import circle.
 */
import type * as z from 'zod/mini';
import type { RateLimit } from './rate-limit.js';
import type { RetryPolicy, Sleep } from './retry.js';

export interface WaitlistClientOptions {
  /** A key from the dashboard (`wlk_live_…`). Its format and checksum are checked here. */
  apiKey: string;
  /** The service's address ({base_url} of the spec), e.g. `https://waitlist.example.com`. */
  baseUrl: string | URL;
  /** Milliseconds each attempt may take, body included. Default 30 000. */
  timeout?: number;
  /** Retries after the first attempt, on 429, 5xx and connection failures. Default 2. */
  maxRetries?: number;
  /** Longest `Retry-After` the client waits out, in milliseconds; longer ones fail at once. Default 60 000. */
  maxRetryAfter?: number;
  /** A fetch implementation; the global `fetch` by default. */
  fetch?: typeof globalThis.fetch;
}

/** Options accepted by every method, overriding the client's for that call. */
export interface RequestOptions {
  /** Aborts the call, including a wait between retries; the call then throws `AbortError`. */
  signal?: AbortSignal;
  /** Milliseconds each attempt may take, body included. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
}

export interface TransportConfig extends RetryPolicy {
  /** Absolute, ending in `/`. */
  baseUrl: string;
  apiKey: string;
  timeout: number;
  fetch: typeof globalThis.fetch | undefined;
  sleep: Sleep;
}

export interface Call<S extends z.ZodMiniType> {
  method: 'get' | 'post';
  /** Relative to the base URL, without a leading `/`. */
  path: string;
  searchParams?: Record<string, string>;
  json?: unknown;
  schema: S;
  /** The schema's name, for error messages. */
  label: string;
}

export interface Result<T> {
  data: T;
  rateLimit: RateLimit;
}
