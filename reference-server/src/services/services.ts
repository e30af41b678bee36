/** Everything a request handler needs, built once by `serve`. */
import { EMAIL_THROTTLE_ATTEMPTS, EMAIL_THROTTLE_WINDOW_MS } from '@waitlistkit/protocol';
import type { Limit } from '../domain/throttle.js';
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
  limiters: { key: Limiter; ip: Limiter; email: Limiter; signIn: Limiter };
  limits: { key: Limit; email: Limit; signIn: Limit };
}

export function createServices(parts: Omit<Services, 'admin' | 'limiters' | 'limits'>): Services {
  return {
    ...parts,
    admin: new Admin(parts.db, parts.clock),
    limiters: { key: new Limiter(), ip: new Limiter(), email: new Limiter(), signIn: new Limiter() },
    limits: {
      key: { capacity: parts.config.keyRateLimit, windowMs: 60_000 },
      email: { capacity: EMAIL_THROTTLE_ATTEMPTS, windowMs: EMAIL_THROTTLE_WINDOW_MS },
      // Five sign-in attempts per address and email in 15 minutes: enough for typos, not for guessing.
      signIn: { capacity: 5, windowMs: 15 * 60_000 },
    },
  };
}
