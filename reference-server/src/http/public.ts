/**
 * Public subscribe, /v1/public/*: request in, `PublicSignups` (app/signup.ts) decides, answer
 * out, with the CORS headers of contract §9 whenever the origin is allowlisted.
 */
import { ErrorCode, Header } from '@waitlistkit/protocol';
import { type Request, type Response, Router } from 'express';
import { preflightOrigin } from '../app/signup.js';
import type { Container } from '../container.js';
import { clientIp } from '../web/client-ip.js';
import { readJsonBody } from './body.js';
import { corsHeaders, PREFLIGHT_HEADERS } from './cors.js';
import { errorOutcome, type Outcome, refusalOutcome } from './outcome.js';
import { send } from './respond.js';

export function publicRouter(app: Container): Router {
  const router = Router();

  router.options('/waitlists/:waitlistId/subscribers', async (req, res) => {
    const origin = await preflightOrigin(app, String(req.params.waitlistId), req.headers.origin);
    if (origin === undefined) return send(res, errorOutcome(ErrorCode.notFound, 'Waitlist not found.'));
    res
      .set({ ...corsHeaders(origin), ...PREFLIGHT_HEADERS })
      .status(204)
      .end();
  });

  router.post('/waitlists/:waitlistId/subscribers', async (req: Request, res: Response) => {
    const result = await app.signups.signUp({
      waitlistId: String(req.params.waitlistId),
      origin: req.headers.origin,
      ip: clientIp(req, app.config.trustProxy),
      readBody: () => readJsonBody(req),
    });
    let outcome: Outcome;
    switch (result.kind) {
      case 'accepted':
        // The 202's body is part one's, byte for byte; the widget learns from this header that a
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
        // Answered here, not by the app's error handler: the 500 must carry CORS headers too.
        app.log.error('public subscribe failed', {
          request_id: res.locals.requestId,
          error: result.error instanceof Error ? result.error.stack : String(result.error),
        });
        outcome = errorOutcome(ErrorCode.internalError, 'Something went wrong on our side; try again.');
    }
    if (result.origin !== undefined) res.set(corsHeaders(result.origin));
    send(res, outcome);
  });

  return router;
}
