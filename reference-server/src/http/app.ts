/**
 * The Express application: routes of both API areas, the status page, the demo page, health and
 * the OpenAPI document; request logs that never hold a key, a status token or a full email.
 */
import { createRequire } from 'node:module';
import { ErrorCode } from '@waitlistkit/protocol';
import express, { type NextFunction, type Request, type Response } from 'express';
import { dashboardRouter } from '../dashboard/router.js';
import { errorOutcome } from '../domain/checks.js';
import type { Services } from '../services/services.js';
import { statusView } from '../services/subscriber-views.js';
import { getWaitlist } from '../store/waitlists.js';
import { apiRouter } from './api.js';
import { demoPage, infoPage } from './pages/demo.js';
import { notFoundPage, statusPage } from './pages/status.js';
import { publicRouter } from './public.js';
import { send, sendPage } from './respond.js';
import { widgetFileHandler } from './widget-file.js';

const openapi = createRequire(import.meta.url)('@waitlistkit/protocol/openapi.json') as unknown;

/** Paths whose last segment is a capability: whoever reads it in a log could use it. */
const SECRET_PATHS: readonly [RegExp, string][] = [
  [/^\/s\/[^/]+/i, '/s/:token'],
  [/^\/dashboard\/keys\/created\/[^/]+/i, '/dashboard/keys/created/:reveal'],
];

/** The path as logged: capability tokens replaced, query strings (which may hold an email) dropped. */
export function loggedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  for (const [pattern, shown] of SECRET_PATHS) if (pattern.test(path)) return path.replace(pattern, shown);
  return path;
}

export interface AppOptions {
  /** The waitlist the demo page at / signs up to. */
  demoWaitlistId?: string | undefined;
}

export function createApp(services: Services, options: AppOptions = {}): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Express would otherwise parse `a[b]=c` into objects; the list query takes plain strings.
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    const started = performance.now();
    res.on('finish', () =>
      services.log.request({
        method: req.method,
        path: loggedPath(req.originalUrl),
        status: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
      }),
    );
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/widget/waitlist.js', widgetFileHandler());
  // Browsers ask for it on every page; an empty answer keeps their consoles free of 404s.
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });

  app.get('/v1/openapi.json', (_req, res) => {
    res.json(openapi);
  });

  app.use('/dashboard', dashboardRouter(services));
  app.use('/v1/api', apiRouter(services));
  app.use('/v1/public', publicRouter(services));

  app.get('/s/:token', async (req, res) => {
    const found = await statusView(services.db, String(req.params.token));
    if (!found || found.archived || !found.settings.referrals) return sendPage(res, notFoundPage(), 404);
    const origin = found.settings.origins[0];
    sendPage(
      res,
      statusPage({
        waitlistName: found.waitlistName,
        position: found.position,
        total: found.total,
        referralCode: found.referralCode,
        referralCount: found.referralCount,
        shareUrl: origin ? `${origin}/?ref=${found.referralCode}` : undefined,
      }),
    );
  });

  app.get('/', async (_req, res) => {
    const waitlist =
      options.demoWaitlistId && (await getWaitlist(services.db.reader, options.demoWaitlistId));
    sendPage(
      res,
      waitlist && !waitlist.archived
        ? demoPage(waitlist.id, waitlist.name, services.config.baseUrl)
        : infoPage(),
    );
  });

  app.use('/v1', (req, res) => {
    send(res, errorOutcome(ErrorCode.notFound, `No endpoint ${req.method} ${loggedPath(req.originalUrl)}.`));
  });

  app.use((_req, res) => {
    sendPage(res, notFoundPage(), 404);
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown }).status;
    // Express's own client errors (e.g. a malformed percent-encoding in the path): no such route.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      if (req.path.startsWith('/v1/')) return send(res, errorOutcome(ErrorCode.notFound, 'Not found.'));
      return sendPage(res, notFoundPage(), 404);
    }
    services.log.error('request failed', {
      method: req.method,
      path: loggedPath(req.originalUrl),
      error: error instanceof Error ? error.stack : String(error),
    });
    if (res.headersSent) return res.end();
    send(res, errorOutcome(ErrorCode.internalError, 'Something went wrong on our side; try again.'));
  });

  return app;
}
