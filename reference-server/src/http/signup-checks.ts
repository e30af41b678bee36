/** Checks both create endpoints apply after their gates: per-email throttle, MX, geo. */
import { ErrorCode, Header } from '@waitlistkit/protocol';
import { errorOutcome, type Outcome } from '../domain/checks.js';
import { geoAllows } from '../domain/gates.js';
import type { WaitlistSettings } from '../domain/settings.js';
import { isDisposable } from '../services/disposable.js';
import type { Services } from '../services/services.js';
import type { Waitlist } from '../store/waitlists.js';

export function emailThrottle(
  services: Services,
  waitlist: Waitlist,
  emailNorm: string,
): Outcome | undefined {
  if (!waitlist.settings.email_throttle) return undefined;
  const taken = services.limiters.email.take(
    `${waitlist.id}|${emailNorm}`,
    services.clock.now(),
    services.limits.email,
  );
  if (taken.allowed) return undefined;
  return errorOutcome(
    ErrorCode.rateLimitExceeded,
    `Too many sign-up attempts for this email address; try again in ${taken.retryAfter} seconds.`,
    { [Header.retryAfter]: String(taken.retryAfter) },
  );
}

export async function mxCheck(
  services: Services,
  enabled: boolean,
  domain: string,
): Promise<Outcome | undefined> {
  if (!enabled) return undefined;
  const verdict = await services.mx.check(domain);
  if (verdict !== 'rejects') return undefined;
  return errorOutcome(
    ErrorCode.invalidEmail,
    `The domain ${domain} does not accept email (it has no MX record).`,
  );
}

function geoRefusal(country: string | undefined): Outcome {
  return errorOutcome(
    ErrorCode.geoRestricted,
    country
      ? `Sign-ups from ${country} are not accepted on this waitlist.`
      : 'Sign-ups from your location are not accepted on this waitlist.',
  );
}

export function disposableCheck(settings: WaitlistSettings, domain: string): Outcome | undefined {
  return settings.block_disposable && isDisposable(domain, settings.disposable_domains)
    ? errorOutcome(ErrorCode.invalidEmail, 'Disposable email addresses are not accepted.')
    : undefined;
}

export function geoCheck(settings: WaitlistSettings, country: string | undefined): Outcome | undefined {
  return geoAllows(settings, country) ? undefined : geoRefusal(country);
}
