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
  /** The service's address ({base_url} of docs/protocol.md#two-areas), e.g. `https://waitlist.example.com`. */
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

/** Options of the methods that POST (`create`, `admit`). */
export interface PostRequestOptions extends RequestOptions {
  /**
   * The `Idempotency-Key` to send (1 to 255 printable ASCII characters, no space at either end).
   * By default the client makes a random one per call. Pass your own when you may repeat the
   * call yourself, e.g. from a job queue, so that the repeat is recognised as the same request.
   */
  idempotencyKey?: string;
}

export interface TransportConfig extends RetryPolicy {
  /** Absolute, ending in `/`. */
  baseUrl: string;
  apiKey: string;
  timeout: number;
  fetch: typeof globalThis.fetch | undefined;
  sleep: Sleep;
}

export interface Call {
  method: 'get' | 'post' | 'delete';
  /** Relative to the base URL, without a leading `/`. */
  path: string;
  searchParams?: Record<string, string>;
  json?: unknown;
}

/** A call whose 2xx answer has a body, checked against `schema`. */
export interface CallWithBody<S extends z.ZodMiniType> extends Call {
  schema: S;
  /** The schema's name, for error messages. */
  label: string;
}

/**
 * What the client reads from the headers of every answer. The names are camelCase where the wire
 * is snake_case, so what the client adds can never be mistaken for (or collide with) a field the
 * service sent. Readable on a result beside the body's fields, but left out of its JSON
 * (result.ts).
 */
export interface ResponseInfo {
  /** The answer's rate-limit headers. */
  readonly rateLimit: RateLimit;
  /** The answer's `Request-Id`, to quote when asking the service's operators; `undefined` if it had none. */
  readonly requestId: string | undefined;
}

/** What a POST's answer adds: whether it is the kept answer to an earlier request with its key. */
export interface PostResponseInfo extends ResponseInfo {
  /** `true` when the service replayed its first answer to this `Idempotency-Key` (`Idempotent-Replayed: true`). */
  readonly idempotentReplayed: boolean;
}

export interface Result<T> extends PostResponseInfo {
  data: T;
}
