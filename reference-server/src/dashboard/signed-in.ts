/**
 * The session guard, and what it establishes: the operator signed in, acting in their tenant,
 * and the session's CSRF token. Every page behind it gets them as its handler's third argument,
 * typed, from one read of the session per request; without a session a GET goes to sign-in and
 * a POST is refused, as is a POST that did not come from the dashboard's own forms.
 */
import type { NextFunction, Request, Response, Router } from 'express';
import { acting } from '../app/guard.js';
import type { Container } from '../container.js';
import { field } from './forms.js';
import { problemPage } from './pages/errors.js';
import type { SignedIn } from './pages/shell.js';
import { sendPage } from './respond.js';
import { currentSession, isSameOriginPost } from './session.js';

/** Who asks, or undefined once the answer to a request without a usable session is sent. */
async function guard(app: Container, req: Request, res: Response): Promise<SignedIn | undefined> {
  const session = await currentSession(app, req);
  if (!session) {
    if (req.method === 'GET') res.redirect(303, '/dashboard/sign-in');
    else sendPage(res, problemPage(undefined, 'Signed out', 'Your session has ended. Sign in again.'), 401);
    return undefined;
  }
  const who: SignedIn = { ...acting(session.operator), csrf: session.csrf };
  if (req.method === 'POST' && !isSameOriginPost(app, req, field(req.body, '_csrf'), session.csrf)) {
    const message = 'This form did not come from the dashboard, so it was not carried out.';
    sendPage(res, problemPage(who, 'Refused', message), 403);
    return undefined;
  }
  return who;
}

export type PageHandler = (req: Request, res: Response, who: SignedIn) => Promise<unknown> | unknown;

/** Routes behind the guard. */
export interface Pages {
  get(path: string, handler: PageHandler): void;
  post(path: string, handler: PageHandler): void;
}

/** Pages on `router`, each behind the guard; `rest` guards what no page matched, before the 404. */
export function pagesOn(app: Container, router: Router): Pages & { rest(): void } {
  const behind = (handler: PageHandler) => async (req: Request, res: Response) => {
    const who = await guard(app, req, res);
    if (who) await handler(req, res, who);
  };
  return {
    get: (path, handler) => router.get(path, behind(handler)),
    post: (path, handler) => router.post(path, behind(handler)),
    rest: () =>
      router.use(async (req: Request, res: Response, next: NextFunction) => {
        if (await guard(app, req, res)) next();
      }),
  };
}
