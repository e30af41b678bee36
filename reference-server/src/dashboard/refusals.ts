/**
 * How the app's refusals become pages, in one place: not found is 404, a member's attempt or a
 * plan's limit 403, anything else (a conflict, a bad value no form shows) 400, each with the
 * app's words or, for what was not found, the page's own. What is not a refusal (a fault, the
 * database away) is thrown, and the error handler answers it (a 500, or a 503).
 */
import type { Response } from 'express';
import type { OperatorRefusal } from '../app/refusal.js';
import type { Container } from '../container.js';
import type { Waitlist } from '../domain/records.js';
import { problemPage } from './pages/errors.js';
import type { SignedIn } from './pages/shell.js';
import { sendPage } from './respond.js';

const STATUS: Partial<Record<OperatorRefusal['code'], number>> = {
  not_found: 404,
  forbidden: 403,
  feature_not_allowed: 403,
};

/** The refusal as its page; `notFound` says what is missing in the page's words. The app has logged what it logs. */
export function refused(
  res: Response,
  who: SignedIn,
  refusal: OperatorRefusal,
  notFound = refusal.message,
): void {
  const missing = refusal.code === 'not_found';
  const page = problemPage(who, missing ? 'Not found' : 'Not allowed', missing ? notFound : refusal.message);
  sendPage(res, page, STATUS[refusal.code] ?? 400);
}

export const NO_WAITLIST = 'There is no such waitlist in your organisation.';

/** A waitlist of the signed-in operator's tenant, or undefined once a 404 page is sent. */
export async function ownWaitlist(
  app: Container,
  res: Response,
  who: SignedIn,
  id: string,
): Promise<Waitlist | undefined> {
  const waitlist = await app.waitlists.get(who, id);
  if (waitlist.ok) return waitlist.value;
  refused(res, who, waitlist.refusal, NO_WAITLIST);
  return undefined;
}
