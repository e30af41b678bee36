/**
 * Where a sign-up through the form stands: one value in place of loose flags, so no state the
 * form cannot be in can be written. Pure: the form component moves from phase to phase and
 * renders each; what a phase means (busy or not, which text a failure gets) is read here.
 */
import { type FieldDefinition, fieldNamed } from '@waitlistkit/protocol';
import {
  ConnectionError,
  GeoRestrictedError,
  InternalServerError,
  InvalidEmailError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  TooManyRoundsError,
  WaitlistError,
} from '../core/errors.js';
import type { Subscribed } from '../core/subscribe.js';
import type { LocaleKey } from './locale.js';

export type Phase =
  /**
   * Nothing sent. Gates being prepared while the visitor types are not a phase of their own:
   * that runs unseen, from any phase before `done`, and shows once a click waits for it.
   */
  | { is: 'idle' }
  /** A request in flight, or the wait before resending one. */
  | { is: 'submitting' }
  /** After the click, a gate being passed: the Challenge's wait or the Proof of Work, by tens. */
  | { is: 'verifying'; percent: number }
  /** `link`: the page's address with `?ref=CODE`, empty when referrals are off. */
  | { is: 'done'; signup: Subscribed; link: string; copied?: boolean }
  /** `seconds`: until a rate-limited visitor may try again, counted down to 0. */
  | { is: 'failed'; error: unknown; seconds?: number | undefined };

export const IDLE: Phase = { is: 'idle' };
export const SUBMITTING: Phase = { is: 'submitting' };

/** Each failure's text, by its class. */
export function failureText(error: unknown): LocaleKey {
  if (error instanceof InvalidEmailError) return 'invalidEmail';
  if (error instanceof InvalidRequestError) return 'invalidRequest';
  if (error instanceof GeoRestrictedError) return 'geoRestricted';
  if (error instanceof NotFoundError) return 'notFound';
  if (error instanceof RateLimitError) return 'rateLimited';
  if (error instanceof InternalServerError) return 'serverError';
  if (error instanceof ConnectionError) return 'networkError';
  if (error instanceof TooManyRoundsError) return 'tooManyRounds';
  return 'error';
}

/** A refused address or request (400) is shown at the field, where the visitor fixes it. */
export const atField = (error: unknown): boolean => error instanceof WaitlistError && error.status === 400;

/**
 * Where a refusal shown at a field goes: the key of the field its message names when the form
 * shows that field (docs/subscribers.md#fields), else `''`, the address field.
 */
export function fieldOf(error: WaitlistError, fields: readonly FieldDefinition[] = []): string {
  const key = fieldNamed(error.message);
  return fields.some((field) => field.key === key) ? (key as string) : '';
}

/** A field's refusal, in the visitor's words: an answer missing (checkFieldValues' sentences), or a wrong one. */
export const answerText = (error: WaitlistError): LocaleKey =>
  / required| ticked/.test(error.message) ? 'required' : 'invalidAnswer';

/** A request or a gate is under way. */
export const busy = ({ is }: Phase): boolean => is === 'submitting' || is === 'verifying';

/** No new sign-up may start: one is under way, or a rate limit's seconds are still counting. */
export const blocked = (phase: Phase): boolean =>
  busy(phase) || (phase.is === 'failed' && phase.seconds! > 0);
