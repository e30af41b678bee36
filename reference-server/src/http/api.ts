/**
 * The customer API, /v1/api/*: request in, `ApiRequests` (app/api.ts) decides, answer out, with
 * the key's budget in RateLimit headers on every answer to an authenticated request.
 */
import { ErrorCode, Header } from '@waitlistkit/protocol';
import { type Request, type Response, Router } from 'express';
import type { ApiResult } from '../app/api.js';
import type { Container } from '../container.js';
import { clientIp } from '../web/client-ip.js';
import { bodyReader } from './body.js';
import { refusalOutcome } from './outcome.js';
import { send } from './respond.js';

function reply<T>(res: Response, result: ApiResult<T>, status: number): void {
  if (result.replayed) res.set(Header.idempotentReplayed, 'true');
  if (result.budget) {
    res.set({
      [Header.rateLimitLimit]: String(result.budget.limit),
      [Header.rateLimitRemaining]: String(result.budget.remaining),
      [Header.rateLimitReset]: String(result.budget.reset),
    });
  }
  if (result.ok) {
    if (result.value === null) res.status(status).end();
    else send(res, { status, body: result.value });
    return;
  }
  const { refusal } = result;
  // One body for every 401, with the Bearer scheme of docs/protocol.md#authentication.
  send(
    res,
    refusalOutcome(refusal, refusal.code === ErrorCode.unauthorized ? { 'WWW-Authenticate': 'Bearer' } : {}),
  );
}

export function apiRouter(app: Container): Router {
  const router = Router();
  const request = (req: Request) => ({
    authorization: req.headers.authorization,
    waitlistId: String(req.params.waitlistId),
  });
  const post = (req: Request) => ({
    ...request(req),
    readBody: bodyReader(req),
    idempotencyKey: req.get(Header.idempotencyKey),
  });

  router.get('/waitlists/:waitlistId/subscribers', async (req, res) => {
    reply(res, await app.api.list({ ...request(req), query: req.query }), 200);
  });

  router.post('/waitlists/:waitlistId/subscribers', async (req, res) => {
    const result = await app.api.create({ ...post(req), ip: clientIp(req, app.config.trustProxy) });
    reply(res, result, 202);
  });

  router.get('/waitlists/:waitlistId/subscribers/:subscriberId', async (req, res) => {
    reply(res, await app.api.get({ ...request(req), subscriberId: String(req.params.subscriberId) }), 200);
  });

  router.delete('/waitlists/:waitlistId/subscribers/:subscriberId', async (req, res) => {
    reply(res, await app.api.erase({ ...request(req), subscriberId: String(req.params.subscriberId) }), 204);
  });

  router.get('/waitlists/:waitlistId/stats', async (req, res) => {
    reply(res, await app.api.stats({ ...request(req), query: req.query }), 200);
  });

  router.post('/waitlists/:waitlistId/admissions', async (req, res) => {
    reply(res, await app.api.admit(post(req)), 200);
  });

  return router;
}
