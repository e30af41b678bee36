/**
 * One call to the service: attempts through ky, our own retry loop around them, and every
 * answer validated against the protocol.
 *
 * Why not ky's `retry`: its hooks cannot express the contract cleanly. ky 1.x clamps a
 * `Retry-After` above `maxRetryAfter` down to the cap and waits that long, where we must fail at
 * once; with no `Retry-After` it falls back to `RateLimit-Reset`, which on this service is the
 * time until the whole budget refills, not until one request would pass; and its waits run on
 * its own timers, so tests could not observe them without sleeping. ky still does what it is
 * good at (URL and query building, the JSON body, the headers, signal plumbing); retries,
 * per-attempt timeouts and error mapping live here, in plain code.
 */
import { Header } from '@waitlistkit/protocol';
import ky, { type KyInstance } from 'ky';
import type * as z from 'zod/mini';
import { AbortError, ConnectionError, TimeoutError, WaitlistError } from './errors.js';
import { newIdempotencyKey, wasReplayed } from './idempotency.js';
import { checkRequestOptions } from './options.js';
import { readRateLimit } from './rate-limit.js';
import { readRequestId } from './request-id.js';
import { type Answer, readSuccess, toApiError } from './response.js';
import { type RetryPolicy, retryDelay } from './retry.js';
import type { Call, CallWithBody, PostRequestOptions, Result, TransportConfig } from './types.js';

function aborted(signal: AbortSignal): AbortError {
  return new AbortError('The call was aborted by its signal.', { cause: signal.reason });
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND …) is in the cause.
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export class Transport {
  readonly #config: TransportConfig;
  readonly #ky: KyInstance;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#ky = ky.create({
      prefixUrl: config.baseUrl,
      headers: { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' },
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      fetch: config.fetch,
    });
  }

  /** A call whose 2xx answer has a body matching `call.schema`. */
  request<S extends z.ZodMiniType>(
    call: CallWithBody<S>,
    options: PostRequestOptions = {},
  ): Promise<Result<z.output<S>>> {
    return this.#send(call, options, (answer) => readSuccess(answer, call.schema, call.label));
  }

  /** A call answered without a body (204): only the status and headers matter. */
  requestNoContent(call: Call, options: PostRequestOptions = {}): Promise<Result<undefined>> {
    return this.#send(call, options, () => undefined);
  }

  async #send<T>(call: Call, options: PostRequestOptions, read: (answer: Answer) => T): Promise<Result<T>> {
    checkRequestOptions(options);
    const { signal } = options;
    const timeout = options.timeout ?? this.#config.timeout;
    const policy: RetryPolicy = {
      ...this.#config,
      maxRetries: options.maxRetries ?? this.#config.maxRetries,
    };
    // Made once, before the first attempt, and sent with every attempt: that is what makes the
    // retries below safe for a POST (idempotency.ts). An object even when empty: ky reads
    // `headers: undefined` as "none", dropping the key and `accept` set on the instance.
    const headers: Record<string, string> =
      call.method === 'post'
        ? { [Header.idempotencyKey]: options.idempotencyKey ?? newIdempotencyKey() }
        : {};
    for (let retry = 1; ; retry++) {
      try {
        return await this.#attempt(call, headers, read, timeout, signal);
      } catch (error) {
        if (!(error instanceof WaitlistError)) throw error;
        const wait = retryDelay(error, retry, policy);
        if (wait === undefined) throw error;
        try {
          await this.#config.sleep(wait, signal);
        } catch (reason) {
          if (signal?.aborted) throw aborted(signal);
          throw reason;
        }
      }
    }
  }

  async #attempt<T>(
    call: Call,
    headers: Record<string, string>,
    read: (answer: Answer) => T,
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<Result<T>> {
    if (signal?.aborted) throw aborted(signal);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeout);
    const attemptSignal = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
    let answer: Answer;
    try {
      const response = await this.#ky(call.path, {
        method: call.method,
        searchParams: call.searchParams,
        json: call.json,
        headers,
        signal: attemptSignal,
      });
      // The body is read inside the deadline: a server that stalls mid-body times out too. The
      // race is explicit because not every fetch (mocks, polyfills) errors the body on abort.
      const text = await untilAborted(response.text(), attemptSignal);
      answer = { status: response.status, statusText: response.statusText, headers: response.headers, text };
    } catch (error) {
      // The caller's abort wins over a deadline that fired at the same moment.
      if (signal?.aborted) throw aborted(signal);
      if (deadline.signal.aborted) {
        throw new TimeoutError(`The service did not answer within ${timeout} ms.`, { cause: error });
      }
      throw new ConnectionError(
        `The connection to the waitlist service failed (${describeFailure(error)}).`,
        {
          cause: error,
        },
      );
    } finally {
      clearTimeout(timer);
    }
    if (answer.status < 200 || answer.status > 299) throw toApiError(answer);
    return {
      data: read(answer),
      rateLimit: readRateLimit(answer.headers),
      requestId: readRequestId(answer.headers),
      idempotentReplayed: wasReplayed(answer.headers),
    };
  }
}
