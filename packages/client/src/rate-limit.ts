import { Header } from '@waitlistkit/protocol';

/**
 * The key's request budget as the last response reported it (docs/protocol.md#throttles-and-budgets). A field is
 * `undefined` when the header was absent or unreadable: error answers sent before the key is
 * known (401) carry no budget, and only 429 answers carry `Retry-After`.
 */
export interface RateLimit {
  /** `RateLimit-Limit`: requests allowed per window on this key. */
  readonly limit: number | undefined;
  /** `RateLimit-Remaining`: requests left in the current window. */
  readonly remaining: number | undefined;
  /** `RateLimit-Reset`: seconds until the budget is full again. */
  readonly reset: number | undefined;
  /** `Retry-After`: seconds to wait before a request would pass. */
  readonly retryAfter: number | undefined;
}

const LEADING_INTEGER = /^\s*(\d+)/;
const DELTA_SECONDS = /^\s*(\d+)\s*$/;

// The leading integer, so the IETF draft's list form (`60, 60;w=60`) reads as its first item too.
function integerHeader(headers: Headers, name: string): number | undefined {
  const match = LEADING_INTEGER.exec(headers.get(name) ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * `Retry-After` in whole seconds. The service sends delta-seconds; an HTTP date (RFC 9110 allows
 * both) is turned into the seconds left from `now`, rounded up and never negative.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const seconds = DELTA_SECONDS.exec(value);
  if (seconds) return Number(seconds[1]);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

export function readRateLimit(headers: Headers): RateLimit {
  return {
    limit: integerHeader(headers, Header.rateLimitLimit),
    remaining: integerHeader(headers, Header.rateLimitRemaining),
    reset: integerHeader(headers, Header.rateLimitReset),
    retryAfter: parseRetryAfter(headers.get(Header.retryAfter)),
  };
}
