/**
 * Dashboard sessions and CSRF protection.
 *
 * The session cookie holds 256 random bits; the database keeps only their SHA-256. Cookies are
 * HttpOnly and SameSite=Lax (Secure behind https). Every POST must carry the session's CSRF token
 * (synchronizer pattern) and, when the browser sends one, an Origin equal to ours: SameSite alone
 * is not enough, since pages on another port of the same host are the same site. The sign-in form
 * has no session yet, so it uses a signed double-submit cookie instead.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Services } from '../services/services.js';
import { deleteSession, findSession, insertSession, type SessionRow } from '../store/sessions.js';

export const SESSION_COOKIE = 'wl_session';
const PRESESSION_COOKIE = 'wl_signin';
const SESSION_MS = 12 * 60 * 60 * 1000;

const hash = (value: string) => createHash('sha256').update(value).digest('hex');

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function cookieOptions(services: Services) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: services.config.baseUrl.startsWith('https:'),
    path: '/dashboard',
  };
}

export async function startSession(services: Services, res: Response, operatorId: string): Promise<void> {
  const id = randomBytes(32).toString('base64url');
  const now = services.clock.now();
  await services.db.writer.submit(
    (db) =>
      insertSession(db, {
        idHash: hash(id),
        operatorId,
        csrf: randomBytes(24).toString('base64url'),
        createdAt: now,
        expiresAt: now + SESSION_MS,
      }),
    { savepoint: false },
  );
  res.cookie(SESSION_COOKIE, id, { ...cookieOptions(services), maxAge: SESSION_MS });
  res.clearCookie(PRESESSION_COOKIE, cookieOptions(services));
}

export async function currentSession(services: Services, req: Request): Promise<SessionRow | undefined> {
  const id = readCookie(req, SESSION_COOKIE);
  if (!id || id.length > 100) return undefined;
  return findSession(services.db.reader, hash(id), services.clock.now());
}

export async function endSession(services: Services, req: Request, res: Response): Promise<void> {
  const id = readCookie(req, SESSION_COOKIE);
  if (id) await services.db.writer.submit((db) => deleteSession(db, hash(id)), { savepoint: false });
  res.clearCookie(SESSION_COOKIE, cookieOptions(services));
}

/**
 * A POST is ours when it carries `expected` and comes from our own pages. Browsers say so in
 * Sec-Fetch-Site, which pages cannot forge; without it, the Origin (when sent) must be the address
 * the request was sent to (the Host header) or our configured base URL: operators may reach the
 * dashboard under another name than the one configured, through a proxy or as localhost.
 */
export function isSameOriginPost(
  services: Services,
  req: Request,
  token: unknown,
  expected: string,
): boolean {
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
    if (host !== req.headers.host && origin !== new URL(services.config.baseUrl).origin) return false;
  }
  return typeof token === 'string' && equal(token, expected);
}

/** The sign-in form's token: a random value in a cookie, and its MAC in the form. */
export function signInToken(services: Services, req: Request, res: Response): string {
  let nonce = readCookie(req, PRESESSION_COOKIE);
  if (!nonce || !/^[\w-]{20,64}$/.test(nonce)) {
    nonce = randomBytes(18).toString('base64url');
    res.cookie(PRESESSION_COOKIE, nonce, { ...cookieOptions(services), maxAge: 60 * 60 * 1000 });
  }
  return createHmac('sha256', services.secret).update(`sign-in|${nonce}`).digest('base64url');
}

export function signInTokenValid(services: Services, req: Request, token: unknown): boolean {
  const nonce = readCookie(req, PRESESSION_COOKIE);
  if (!nonce) return false;
  const expected = createHmac('sha256', services.secret).update(`sign-in|${nonce}`).digest('base64url');
  return isSameOriginPost(services, req, token, expected);
}
