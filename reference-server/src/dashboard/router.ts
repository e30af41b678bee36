/**
 * The operator dashboard under /dashboard: server-rendered pages whose every action is a plain
 * form post followed by a redirect, so everything works without JavaScript. Rules are the app's
 * (the same use cases as the command line); this door decides only who is asking and what page
 * to show. Sign-in is open; everything else passes the session guard first.
 */
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { Container } from '../container.js';
import { clientIp } from '../web/client-ip.js';
import { field } from './forms.js';
import { problemPage } from './pages/errors.js';
import { signInPage } from './pages/sign-in.js';
import { sendPage } from './respond.js';
import { activityRoutes } from './routes/activity.js';
import { importRoutes } from './routes/import.js';
import { keyRoutes } from './routes/keys.js';
import { MESSAGE_FORM_PATHS, messageForms, messageRoutes } from './routes/messages.js';
import { overviewRoutes } from './routes/overview.js';
import { subscriberRoutes } from './routes/subscribers.js';
import { waitlistRoutes } from './routes/waitlists.js';
import { webhookRoutes } from './routes/webhooks.js';
import { currentSession, endSession, setSessionCookie, signInToken, signInTokenValid } from './session.js';
import { pagesOn } from './signed-in.js';

export function dashboardRouter(app: Container): Router {
  const router = Router();

  router.use(MESSAGE_FORM_PATHS, messageForms);
  router.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  // ------------------------------------------------------------------ sign-in

  router.get('/sign-in', async (req, res) => {
    if (await currentSession(app, req)) return res.redirect(303, '/dashboard/waitlists');
    sendPage(res, signInPage({ token: signInToken(app, req, res) }));
  });

  router.post('/sign-in', async (req, res) => {
    const email = field(req.body, 'email') ?? '';
    const password = field(req.body, 'password') ?? '';
    const again = (status: number, error: string, retryAfter?: number) => {
      if (retryAfter !== undefined) res.set('Retry-After', String(retryAfter));
      sendPage(res, signInPage({ token: signInToken(app, req, res), email, error }), status);
    };
    if (!signInTokenValid(app, req, field(req.body, '_csrf')))
      return again(403, 'The form expired; sign in again.');
    const result = await app.sessions.signIn(email, password, clientIp(req, app.config.trustProxy));
    switch (result.kind) {
      case 'throttled': {
        const minutes = Math.ceil(result.retryAfter / 60);
        return again(
          429,
          `Too many sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          result.retryAfter,
        );
      }
      case 'busy':
        return again(429, result.message, result.retryAfter);
      case 'wrong':
        return again(401, 'Wrong email or password.');
      case 'signed_in':
        setSessionCookie(app, res, result.sessionId);
        return res.redirect(303, '/dashboard/waitlists');
    }
  });

  // ------------------------------------------------------------------ everything else needs a session

  const pages = pagesOn(app, router);

  pages.post('/sign-out', async (req, res) => {
    await endSession(app, req, res);
    res.redirect(303, '/dashboard/sign-in');
  });

  pages.get('/', (_req, res) => res.redirect(303, '/dashboard/waitlists'));

  waitlistRoutes(app, pages);
  subscriberRoutes(app, pages);
  importRoutes(app, pages, router);
  overviewRoutes(app, pages);
  keyRoutes(app, pages);
  webhookRoutes(app, pages);
  activityRoutes(app, pages);
  messageRoutes(app, pages);
  pages.rest();

  // A form larger than its parser takes was not read, so nobody was asked: a page that says so.
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if ((error as { status?: unknown }).status !== 413) return next(error);
    const message =
      'The form was larger than the dashboard accepts, so nothing was done. Go back and shorten it.';
    sendPage(res, problemPage(undefined, 'Too large', message), 413);
  });

  return router;
}
