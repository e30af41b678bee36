export type {
  AcceptedSignup,
  AdmissionsResult,
  ApiCreateSubscriberBody,
  ApiKeyProblem,
  DeletedSubscriber,
  ListPage,
  ReferralCredit,
  ReferralCreditedEvent,
  Stats,
  Subscriber,
  SubscriberAdmittedEvent,
  SubscriberConfirmedEvent,
  SubscriberCreatedEvent,
  SubscriberDeletedEvent,
  SubscriberStatus,
  WebhookEvent,
  WebhookEventOf,
  WebhookSubscriber,
} from '@waitlistkit/protocol';
export { ErrorCode, WEBHOOK_EVENT_TYPES, WebhookEventType, WebhookHeader } from '@waitlistkit/protocol';
export { WaitlistClient } from './client.js';
export * from './errors.js';
export type { RateLimit } from './rate-limit.js';
export type { StatsParams, StatsResult } from './stats.js';
export type {
  AdmitParams,
  AdmitResult,
  AnswersOf,
  CreateParams,
  DeleteResult,
  IterateParams,
  ListParams,
  SignupResult,
  SubscriberOf,
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
export {
  type RawBody,
  type SignedWebhookHeaders,
  type VerifiedWebhook,
  type WebhookHeaders,
  type WebhookSignInput,
  type Webhooks,
  type WebhookVerifyOptions,
  webhooks,
} from './webhooks/index.js';
