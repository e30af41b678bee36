export type {
  AcceptedSignup,
  ApiCreateSubscriberBody,
  ApiKeyProblem,
  ListPage,
  Subscriber,
} from '@waitlistkit/protocol';
export { ErrorCode } from '@waitlistkit/protocol';
export { WaitlistClient } from './client.js';
export * from './errors.js';
export type { RateLimit } from './rate-limit.js';
export type {
  CreateParams,
  IterateParams,
  ListParams,
  SignupResult,
  SubscriberPage,
  Subscribers,
  WithRateLimit,
} from './subscribers.js';
export type { RequestOptions, WaitlistClientOptions } from './types.js';
