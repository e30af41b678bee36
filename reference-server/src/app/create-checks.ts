/**
 * What both create endpoints (the public sign-up and the customer API's) check after their own
 * gates, in this order: the per-email throttle, disposable domains, MX, geo; and the 202 they
 * answer. Each check is the refusal or undefined; a walk says how it stops on one. A check that
 * is off answers without a promise, so the public walk goes on without a turn of the event loop.
 */
import {
  type AcceptedSignup,
  checkFieldValues,
  ErrorCode,
  type FieldValues,
  type Language,
  type Source,
} from '@waitlistkit/protocol';
import { isDisposable } from '../adapters/disposable.js';
import { geoAllows } from '../domain/gates.js';
import type { SignupRow, Waitlist } from '../domain/records.js';
import type { WaitlistSettings } from '../domain/settings.js';
import { type SignupExtras, signupExtras } from '../domain/signup-extras.js';
import type { Context } from './context.js';
import { type Refusal, refusal } from './refusal.js';

/**
 * The rest of the body check, against the waitlist: the answers to its fields (a 400 naming the
 * key), and the source and language already checked by the body's schema, as a fresh sign-up keeps them.
 */
export function extrasCheck(
  settings: WaitlistSettings,
  body: {
    normalized_email: string;
    fields?: FieldValues | undefined;
    source?: Source | undefined;
    lang?: Language | undefined;
  },
): { extras: SignupExtras } | { refusal: Refusal } {
  const answers = checkFieldValues(settings.fields, body.fields);
  if (!answers.ok) return { refusal: refusal(ErrorCode.invalidRequest, answers.problem.message) };
  return { extras: signupExtras(body.normalized_email, answers.value, body.source ?? {}, body.lang ?? null) };
}

export function emailThrottle(
  ctx: Context,
  waitlist: Waitlist,
  emailNorm: string,
): Promise<Refusal | undefined> | undefined {
  if (!waitlist.settings.email_throttle) return undefined;
  return takeEmail(ctx, waitlist, emailNorm);
}

async function takeEmail(ctx: Context, waitlist: Waitlist, emailNorm: string): Promise<Refusal | undefined> {
  const taken = await ctx.limiters.email.take(
    `${waitlist.id}|${emailNorm}`,
    ctx.clock.now(),
    ctx.limits.email,
  );
  if (taken.allowed) return undefined;
  return refusal(
    ErrorCode.rateLimitExceeded,
    `Too many sign-up attempts for this email address; try again in ${taken.retryAfter} seconds.`,
    taken.retryAfter,
  );
}

export function disposableCheck(settings: WaitlistSettings, domain: string): Refusal | undefined {
  return settings.block_disposable && isDisposable(domain, settings.disposable_domains)
    ? refusal(ErrorCode.invalidEmail, 'Disposable email addresses are not accepted.')
    : undefined;
}

export function mxCheck(
  ctx: Context,
  settings: WaitlistSettings,
  domain: string,
): Promise<Refusal | undefined> | undefined {
  return settings.mx_check ? lookUpMx(ctx, domain) : undefined;
}

async function lookUpMx(ctx: Context, domain: string): Promise<Refusal | undefined> {
  if ((await ctx.mx.check(domain)) !== 'rejects') return undefined;
  return refusal(ErrorCode.invalidEmail, `The domain ${domain} does not accept email (it has no MX record).`);
}

export function geoCheck(settings: WaitlistSettings, country: string | undefined): Refusal | undefined {
  if (geoAllows(settings, country)) return undefined;
  return refusal(
    ErrorCode.geoRestricted,
    country
      ? `Sign-ups from ${country} are not accepted on this waitlist.`
      : 'Sign-ups from your location are not accepted on this waitlist.',
  );
}

/** The 202 body: the subscriber's handles when referrals are on, empty strings otherwise. */
export function acceptedBody(
  subscriber: SignupRow,
  settings: WaitlistSettings,
  appUrl: string,
): AcceptedSignup {
  if (!settings.referrals) return { status: 'accepted', status_token: '', referral_code: '', status_url: '' };
  return {
    status: 'accepted',
    status_token: subscriber.status_token,
    referral_code: subscriber.referral_code,
    status_url: `${appUrl}/s/${subscriber.status_token}`,
  };
}
