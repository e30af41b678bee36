/**
 * Dashboard sessions and CSRF protection.
 *
 * The session cookie holds 256 random bits; the database keeps only their SHA-256. Cookies are
 * HttpOnly and SameSite=Lax (Secure behind https). Every POST must carry the session's CSRF token
 * (synchronizer pattern) and, when the browser sends one, an Origin equal to ours: SameSite alone
 * is not enough, since pages on another port of the same host are the same site. The sign-in form
 * has no session yet, so it uses a signed double-submit cookie instead.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { SESSION_MS } from '../app/sessions.js';
import type { Container } from '../container.js';
import { constantTimeEqual } from '../domain/crypto.js';
import type { Session } from '../domain/records.js';

export const SESSION_COOKIE = 'wl_session';
const PRESESSION_COOKIE = 'wl_signin';

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function cookieOptions(app: Container) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: app.config.baseUrl.startsWith('https:'),
    path: '/dashboard',
  };
}

/** Sets the cookie of a session the app has started. */
export function setSessionCookie(app: Container, res: Response, sessionId: string): void {
  res.cookie(SESSION_COOKIE, sessionId, { ...cookieOptions(app), maxAge: SESSION_MS });
  res.clearCookie(PRESESSION_COOKIE, cookieOptions(app));
}

export async function currentSession(app: Container, req: Request): Promise<Session | undefined> {
  const id = readCookie(req, SESSION_COOKIE);
  if (!id || id.length > 100) return undefined;
  return app.sessions.current(id);
}

export async function endSession(app: Container, req: Request, res: Response): Promise<void> {
  const id = readCookie(req, SESSION_COOKIE);
  if (id) await app.sessions.end(id);
  res.clearCookie(SESSION_COOKIE, cookieOptions(app));
}

/**
 * A POST is ours when it carries `expected` and comes from our own pages. Browsers say so in
 * Sec-Fetch-Site, which pages cannot forge; without it, the Origin (when sent) must be the address
 * the request was sent to (the Host header) or our configured base URL: operators may reach the
 * dashboard under another name than the one configured, through a proxy or as localhost.
 */
export function isSameOriginPost(app: Container, req: Request, token: unknown, expected: string): boolean {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  if (site !== undefined) {
    if (site !== 'same-origin') return false;
  } else if (origin !== undefined) {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      return false;
    }
    if (host !== req.headers.host && origin !== new URL(app.config.baseUrl).origin) return false;
  }
  return typeof token === 'string' && constantTimeEqual(token, expected);
}

/** The sign-in form's token: a random value in a cookie, and its MAC in the form. */
export function signInToken(app: Container, req: Request, res: Response): string {
  let nonce = readCookie(req, PRESESSION_COOKIE);
  if (!nonce || !/^[\w-]{20,64}$/.test(nonce)) {
    nonce = randomBytes(18).toString('base64url');
    res.cookie(PRESESSION_COOKIE, nonce, { ...cookieOptions(app), maxAge: 60 * 60 * 1000 });
  }
  return createHmac('sha256', app.secret).update(`sign-in|${nonce}`).digest('base64url');
}

export function signInTokenValid(app: Container, req: Request, token: unknown): boolean {
  const nonce = readCookie(req, PRESESSION_COOKIE);
  if (!nonce) return false;
  const expected = createHmac('sha256', app.secret).update(`sign-in|${nonce}`).digest('base64url');
  return isSameOriginPost(app, req, token, expected);
}
