/**
 * Public subscribe and its gates, /v1/public/*: request in, `PublicSignups` (app/signup.ts)
 * decides, answer out, with the CORS headers of docs/protocol.md#cors whenever the origin is allowlisted.
 * A sign-up spelled as the service spells its route is answered before Express (public-signup.ts).
 */
import { ErrorCode } from '@waitlistkit/protocol';
import { type Request, type Response, Router } from 'express';
import { FORM_MAX_AGE_MS, preflightOrigin } from '../app/signup.js';
import type { Container } from '../container.js';
import { clientIp } from '../web/client-ip.js';
import { bodyReader } from './body.js';
import { corsHeaders, PREFLIGHT_HEADERS } from './cors.js';
import { errorOutcome, type Outcome, refusalOutcome } from './outcome.js';
import type { PublicFailure, SignupAnswer } from './public-signup.js';
import { send } from './respond.js';

export function publicRouter(
  app: Container,
  publicFailure: PublicFailure,
  answerSignup: SignupAnswer,
): Router {
  const router = Router();

  const subscribe = '/waitlists/:waitlistId/subscribers';
  const gates = '/waitlists/:waitlistId/gates';
  const views = '/waitlists/:waitlistId/views';
  const input = (req: Request) => ({
    waitlistId: String(req.params.waitlistId),
    origin: req.headers.origin,
    ip: clientIp(req, app.config.trustProxy),
    readBody: bodyReader(req),
  });
  // Answered here, not by the app's error handler: the 500 (or 503) must carry CORS headers too.
  const failed = (res: Response, what: string, error: unknown): Outcome =>
    publicFailure(res.locals.requestId, what, error);

  router.options([subscribe, gates, views], async (req, res) => {
    const origin = await preflightOrigin(app, String(req.params.waitlistId), req.headers.origin);
    if (origin === undefined) return send(res, errorOutcome(ErrorCode.notFound, 'Waitlist not found.'));
    res
      .set({ ...corsHeaders(origin), ...PREFLIGHT_HEADERS })
      .status(204)
      .end();
  });

  // A simple GET: no preflight. Cached by the browser as long as the server may answer from
  // its memory of the waitlist (FORM_MAX_AGE_MS): a page view a minute costs no request.
  router.get('/waitlists/:waitlistId/form', async (req: Request, res: Response) => {
    const result = await app.signups.form(String(req.params.waitlistId), req.headers.origin);
    // Cached: whatever the answer, it depends on the Origin it was asked with.
    res.vary('Origin');
    if (result.origin !== undefined) res.set(corsHeaders(result.origin));
    if (result.kind === 'form') {
      res.set('Cache-Control', `public, max-age=${FORM_MAX_AGE_MS / 1000}`);
      return send(res, { status: 200, body: result.body });
    }
    send(res, result.kind === 'refused' ? refusalOutcome(result.refusal) : failed(res, 'form', result.error));
  });

  router.post(gates, async (req: Request, res: Response) => {
    const result = await app.signups.gates(input(req));
    const outcome: Outcome =
      result.kind === 'gates'
        ? { status: 200, body: result.body }
        : result.kind === 'refused'
          ? refusalOutcome(result.refusal)
          : failed(res, 'gates', result.error);
    if (result.origin !== undefined) res.set(corsHeaders(result.origin));
    send(res, outcome);
  });

  // One view of the form (docs/insights.md#views): 204, nothing to read. The widget's beacon sends
  // its JSON as text/plain, which needs no preflight.
  router.post(views, async (req: Request, res: Response) => {
    const result = await app.views.count({ ...input(req), readBody: bodyReader(req, 'json_or_text') });
    if (result.origin !== undefined) res.set(corsHeaders(result.origin));
    if (result.kind === 'counted') return void res.status(204).end();
    send(res, result.kind === 'refused' ? refusalOutcome(result.refusal) : failed(res, 'view', result.error));
  });

  router.post(subscribe, (req: Request, res: Response) =>
    answerSignup(req, res, String(req.params.waitlistId), res.locals.requestId),
  );

  return router;
}
