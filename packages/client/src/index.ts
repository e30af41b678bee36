export type {
  AcceptedSignup,
  AdmissionsResult,
  ApiCreateSubscriberBody,
  ApiKeyProblem,
  ListPage,
  Subscriber,
  SubscriberStatus,
} from '@waitlistkit/protocol';
export { ErrorCode } from '@waitlistkit/protocol';
export { WaitlistClient } from './client.js';
export * from './errors.js';
export type { RateLimit } from './rate-limit.js';
export type {
  AdmitParams,
  AdmitResult,
  CreateParams,
  DeleteResult,
  IterateParams,
  ListParams,
  SignupResult,
  SubscriberPage,
  SubscriberResult,
  Subscribers,
  WithRateLimit,
  WithResponseInfo,
} from './subscribers.js';
export type {
  PostRequestOptions,
  PostResponseInfo,
  RequestOptions,
  ResponseInfo,
  WaitlistClientOptions,
} from './types.js';
