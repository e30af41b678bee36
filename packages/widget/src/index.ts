/**
 * `@waitlistkit/widget`: the waitlist sign-up form (`mount`, `<waitlist-form>`) and the
 * headless `subscribe()` it is built on. The script-tag build is `@waitlistkit/widget/waitlist.js`.
 */
export type {
  AcceptedSignup,
  ChallengeRequired,
  ErrorCode,
  FieldDefinition,
  FieldValues,
  Gate,
  PublicSubscribeBody,
  Source,
} from '@waitlistkit/protocol';
export type { Clock } from './core/clock.js';
export {
  AbortError,
  ConnectionError,
  GeoRestrictedError,
  InternalServerError,
  InvalidEmailError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  TooManyRoundsError,
  WaitlistError,
  type WaitlistErrorCode,
} from './core/errors.js';
export { type FormDescriptionOptions, fetchFormDescription } from './core/form-description.js';
export { AbortedError, NetworkError, RateLimitedError, ServerError } from './core/renamed.js';
export {
  type PreparedGates,
  type PrepareOptions,
  type Progress,
  prepareGates,
  type Subscribed,
  type SubscribeOptions,
  subscribe,
} from './core/subscribe.js';
export { type PowProgress, type SolveOptions, solvePow } from './solver/solve.js';
export { DEFAULT_TAG, defineWaitlistElement, type WaitlistElement } from './ui/element.js';
export { en, type Locale } from './ui/locale.js';
export { mount, type WaitlistHandle } from './ui/mount.js';
export type { MountOptions, Theme } from './ui/options.js';
