/** Everything a request handler needs, built once by `serve`. */
import { EMAIL_THROTTLE_ATTEMPTS, EMAIL_THROTTLE_WINDOW_MS } from '@waitlistkit/protocol';
import { type Bucket, type Limit, slidingWindow, tokenBucket, type WindowLog } from '../domain/throttle.js';
import { Admin } from './admin.js';
import type { Clock } from './clock.js';
import type { Database } from './database.js';
import { Limiter } from './limiter.js';
import type { Logger } from './logger.js';
import type { MxChecker } from './mx.js';

export interface ServerConfig {
  baseUrl: string;
  appUrl: string;
  trustProxy: boolean;
  keyRateLimit: number;
}

export interface Services {
  db: Database;
  clock: Clock;
  admin: Admin;
  secret: string;
  config: ServerConfig;
  log: Logger;
  mx: MxChecker;
  limiters: {
    key: Limiter<Bucket>;
    ip: Limiter<WindowLog>;
    email: Limiter<WindowLog>;
    signIn: Limiter<WindowLog>;
    signInIp: Limiter<WindowLog>;
  };
  limits: { key: Limit; email: Limit; signIn: Limit; signInIp: Limit };
}

export function createServices(parts: Omit<Services, 'admin' | 'limiters' | 'limits'>): Services {
  return {
    ...parts,
    admin: new Admin(parts.db, parts.clock),
    limiters: {
      key: new Limiter(tokenBucket),
      ip: new Limiter(slidingWindow),
      email: new Limiter(slidingWindow),
      signIn: new Limiter(slidingWindow),
      signInIp: new Limiter(slidingWindow),
    },
    limits: {
      key: { capacity: parts.config.keyRateLimit, windowMs: 60_000 },
      email: { capacity: EMAIL_THROTTLE_ATTEMPTS, windowMs: EMAIL_THROTTLE_WINDOW_MS },
      // Five sign-in attempts per address and email in 15 minutes: enough for typos, not for guessing.
      signIn: { capacity: 5, windowMs: 15 * 60_000 },
      // And thirty per address whatever the emails (an office shares one): each attempt costs a
      // 128 MiB scrypt run, so varying the email must not buy unlimited ones.
      signInIp: { capacity: 30, windowMs: 15 * 60_000 },
    },
  };
}
