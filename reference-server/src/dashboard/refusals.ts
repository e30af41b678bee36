/**
 * How the app's refusals become pages: not found is 404, not allowed 403, each with the app's
 * words or the door's own. Anything that is not a refusal is a fault, or the database away,
 * and goes on to the error handler (a 500, or a 503).
 */
import type { Response } from 'express';
import type { Container } from '../container.js';
import { DomainError, storeUnavailable } from '../domain/errors.js';
import type { Waitlist } from '../domain/records.js';
import { problemPage } from './pages/errors.js';
import { sendPage, who } from './respond.js';

const STATUS: Partial<Record<DomainError['code'], number>> = {
  not_found: 404,
  forbidden: 403,
  feature_not_allowed: 403,
};

/** A refusal of the app (member, plan, not found) as a page; the app has logged what it logs. */
export function refused(
  res: Response,
  failure: unknown,
  notFound = failure instanceof DomainError ? failure.message : '',
): void {
  if (!(failure instanceof DomainError) || storeUnavailable(failure)) throw failure;
  const title = failure.code === 'not_found' ? 'Not found' : 'Not allowed';
  const message = failure.code === 'not_found' ? notFound : failure.message;
  sendPage(res, problemPage(who(res), title, message), STATUS[failure.code] ?? 400);
}

/** A waitlist of the signed-in operator's tenant, or undefined once a 404 page is sent. */
export async function ownWaitlist(app: Container, res: Response, id: string): Promise<Waitlist | undefined> {
  try {
    return await app.operators.tenantWaitlist(who(res).operator, id);
  } catch (failure) {
    refused(res, failure, 'There is no such waitlist in your organisation.');
    return undefined;
  }
}
