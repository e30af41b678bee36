/**
 * What the use cases work with: the store, the adapters to the outside, the throttles (their
 * state kept by the store) and the server's settings. `container.ts` builds one; tests of a use
 * case can build their own.
 */
import { EMAIL_THROTTLE_ATTEMPTS, EMAIL_THROTTLE_WINDOW_MS } from '@waitlistkit/protocol';
import type { Clock } from '../adapters/clock.js';
import type { Logger } from '../adapters/logger.js';
import type { MxChecker } from '../adapters/mx.js';
import {
  POW_REPEAT_WINDOW_MS,
  POW_SURGE_WINDOW_MS,
  SURGE_COUNTED_PER_CLIENT,
} from '../domain/pow-difficulty.js';
import { type Bucket, type Limit, slidingWindow, tokenBucket, type WindowLog } from '../domain/throttle.js';
import type { Limiter } from '../store/limiter.js';
import type { Store } from '../store/store.js';
import type { ErasureCleanup } from './erasure-cleanup.js';

export interface ServerConfig {
  baseUrl: string;
  appUrl: string;
  trustProxy: boolean;
  keyRateLimit: number;
  /** WAITLIST_SMTP_URL is set: confirmation mail goes out (otherwise it waits, docs/self-hosting.md#mail). */
  sendsMail: boolean;
}

export interface Throttles {
  key: Limiter<Bucket>;
  ip: Limiter<WindowLog>;
  email: Limiter<WindowLog>;
  signIn: Limiter<WindowLog>;
  signInIp: Limiter<WindowLog>;
  /** Presses of the confirmation button (docs/subscribers.md#email-confirmation) per client. */
  confirm: Limiter<WindowLog>;
  /** Test mails of messages (docs/messages.md#test-mail) per operator. */
  testMail: Limiter<WindowLog>;
  /** Counters, never refusing: nonces counted per waitlist, public sign-ups accepted per waitlist and client. */
  powIssued: Limiter<WindowLog>;
  powAccepted: Limiter<WindowLog>;
  /** Which of a client's nonces count in `powIssued` (domain/pow-difficulty). */
  powIssuedByClient: Limiter<WindowLog>;
}

export interface Limits {
  key: Limit;
  email: Limit;
  signIn: Limit;
  signInIp: Limit;
  confirm: Limit;
  testMail: Limit;
  powIssued: Limit;
  powAccepted: Limit;
  powIssuedByClient: Limit;
}

export interface Context {
  store: Store;
  clock: Clock;
  secret: string;
  config: ServerConfig;
  log: Logger;
  mx: MxChecker;
  limiters: Throttles;
  limits: Limits;
  /** What follows an erasure: the cleanup of the database's files, queued or (one-shot) awaited. */
  erasureCleanup: ErasureCleanup;
}

/** The throttles, their state kept by the store (in memory or in the database), and their limits. */
export function throttles(store: Store, keyRateLimit: number): { limiters: Throttles; limits: Limits } {
  return {
    limiters: {
      key: store.limiter('key', tokenBucket),
      ip: store.limiter('ip', slidingWindow),
      email: store.limiter('email', slidingWindow),
      signIn: store.limiter('sign_in', slidingWindow),
      signInIp: store.limiter('sign_in_ip', slidingWindow),
      confirm: store.limiter('confirm', slidingWindow),
      testMail: store.limiter('test_mail', slidingWindow),
      powIssued: store.limiter('pow_issued', slidingWindow),
      powAccepted: store.limiter('pow_accepted', slidingWindow),
      powIssuedByClient: store.limiter('pow_issued_client', slidingWindow),
    },
    limits: {
      key: { capacity: keyRateLimit, windowMs: 60_000 },
      email: { capacity: EMAIL_THROTTLE_ATTEMPTS, windowMs: EMAIL_THROTTLE_WINDOW_MS },
      // Five sign-in attempts per address and email in 15 minutes: enough for typos, not for guessing.
      signIn: { capacity: 5, windowMs: 15 * 60_000 },
      // And thirty per address whatever the emails (an office shares one): each attempt costs a
      // 128 MiB scrypt run, so varying the email must not buy unlimited ones.
      signInIp: { capacity: 30, windowMs: 15 * 60_000 },
      // A person presses the confirmation button once or twice; thirty a minute per client keeps
      // the button from being a way to try tokens at speed (they are 128 random bits anyway).
      confirm: { capacity: 30, windowMs: 60_000 },
      // Enough to try a wording or two; too few for the button to bomb anyone's inbox, even one's own.
      testMail: { capacity: 3, windowMs: 60_000 },
      // Unbounded: these count for adaptive Proof of Work (docs/gates.md#adaptive-difficulty) and refuse nothing.
      powIssued: { capacity: Number.POSITIVE_INFINITY, windowMs: POW_SURGE_WINDOW_MS },
      powAccepted: { capacity: Number.POSITIVE_INFINITY, windowMs: POW_REPEAT_WINDOW_MS },
      // Capped: a nonce past its client's share is issued all the same, only not counted.
      powIssuedByClient: SURGE_COUNTED_PER_CLIENT,
    },
  };
}
