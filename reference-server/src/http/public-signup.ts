/**
 * The answer to a public sign-up, POST /v1/public/waitlists/:waitlistId/subscribers: `PublicSignups`
 * (app/signup.ts) decides, the answer is written on node:http's own response with the CORS
 * headers of docs/protocol.md#cors whenever the origin is allowlisted. The busiest request the
 * service answers, so it has a lane in front of Express (`signupLane`): Express's router walks
 * every layer before this route and its response helpers copy the body and set each header one by
 * one, which cost a sign-up more of the main thread than everything the service decides
 * (docs/contributing.md#how-the-server-works). Express's route (public.ts) answers with the same function.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, Header } from '@waitlistkit/protocol';
import type { DatabaseHealth } from '../app/database-health.js';
import type { Container } from '../container.js';
import { clientIp } from '../web/client-ip.js';
import { bodyReader } from './body.js';
import { corsHeaders } from './cors.js';
import { errorOutcome, type Outcome, refusalOutcome, unavailableOutcome } from './outcome.js';
import { requestIdFor } from './request-log.js';
import { writeJson } from './respond.js';

/** A public request that failed on our side: a 503 while the database is away, else a logged 500. */
export type PublicFailure = (requestId: string, what: string, error: unknown) => Outcome;

export function publicFailure(app: Container, health: DatabaseHealth): PublicFailure {
  return (requestId, what, error) => {
    if (health.observe(error)) return unavailableOutcome(health.retryAfter(error));
    app.log.error(`public ${what} failed`, {
      request_id: requestId,
      error: error instanceof Error ? error.stack : String(error),
    });
    return errorOutcome(ErrorCode.internalError, 'Something went wrong on our side; try again.');
  };
}

export type SignupAnswer = (
  req: IncomingMessage,
  res: ServerResponse,
  waitlistId: string,
  requestId: string,
) => Promise<void>;

export function signupAnswer(app: Container, failed: PublicFailure): SignupAnswer {
  return async (req, res, waitlistId, requestId) => {
    const result = await app.signups.signUp({
      waitlistId,
      origin: req.headers.origin,
      ip: clientIp(req, app.config.trustProxy),
      readBody: bodyReader(req),
    });
    let outcome: Outcome;
    switch (result.kind) {
      case 'accepted':
        // The 202's body is docs/endpoints.md#accepted-sign-up, byte for byte; the widget learns from this header that a
        // confirmation mail is on its way. It says what the waitlist does, not what this address
        // is, so a re-sign-up still cannot tell a confirmed address from a new one.
        outcome = {
          status: 202,
          body: result.body,
          ...(result.confirmEmail ? { headers: { [Header.confirmEmail]: 'on' } } : {}),
        };
        break;
      case 'gate':
        outcome = { status: 428, body: result.body };
        break;
      case 'refused':
        outcome = refusalOutcome(result.refusal);
        break;
      case 'failed':
        outcome = failed(requestId, 'subscribe', result.error);
    }
    const cors = result.origin === undefined ? undefined : corsHeaders(result.origin);
    writeJson(res, outcome.status, outcome.body, { ...cors, ...outcome.headers });
  };
}

/**
 * The route's own spelling only (the id as the service makes them, no query string): any other,
 * a trailing slash, another case, a percent-encoded id, goes on to Express, whose route answers
 * it the same way.
 */
const SIGNUP_PATH = /^\/v1\/public\/waitlists\/([A-Za-z0-9_-]{1,100})\/subscribers$/;

/**
 * The request listener's first look: a public sign-up is answered here, with its Request-Id and
 * log line as every answer has them; false for every other request, which Express answers.
 */
export function signupLane(app: Container, answer: SignupAnswer) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST') return false;
    const waitlistId = SIGNUP_PATH.exec(req.url ?? '')?.[1];
    if (waitlistId === undefined) return false;
    const requestId = requestIdFor(app.log, req, res, req.url as string);
    res.setHeader(Header.requestId, requestId);
    answer(req, res, waitlistId, requestId).catch((error: unknown) => {
      // As Express's last error handler answers a route that threw: a 500, logged.
      app.log.error('request failed', {
        request_id: requestId,
        method: req.method,
        path: req.url,
        error: error instanceof Error ? error.stack : String(error),
      });
      if (res.headersSent) return res.end();
      writeJson(
        res,
        500,
        errorOutcome(ErrorCode.internalError, 'Something went wrong on our side; try again.').body,
      );
    });
    return true;
  };
}
