/**
 * The server's request listener: the public sign-up's own lane (public-signup.ts), then the Express
 * application: routes of both API areas, the status page, the demo page, health and the OpenAPI
 * document; request logs that never hold a key, a status token or a full email (request-log.ts).
 */
import type { RequestListener } from 'node:http';
import { createRequire } from 'node:module';
import { ErrorCode, Header } from '@waitlistkit/protocol';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { confirmationPage, pressConfirm } from '../app/confirmations.js';
import type { DatabaseHealth } from '../app/database-health.js';
import { liveWaitlist } from '../app/demo.js';
import { statusView } from '../app/subscribers.js';
import { unsubscribe, unsubscribeView } from '../app/unsubscribe.js';
import type { Container } from '../container.js';
import { languageOfHeader } from '../domain/say.js';
import { type Words, wordsFor } from '../domain/texts/index.js';
import { clientIp } from '../web/client-ip.js';
import { apiRouter } from './api.js';
import { errorOutcome, unavailableOutcome } from './outcome.js';
import { confirmPage, tooManyConfirmationsPage, unknownConfirmationPage } from './pages/confirm.js';
import { demoPage, infoPage } from './pages/demo.js';
import { notFoundPage, statusPage } from './pages/status.js';
import { unavailablePage } from './pages/unavailable.js';
import { unsubscribePage } from './pages/unsubscribe.js';
import { publicRouter } from './public.js';
import { publicFailure, signupAnswer, signupLane } from './public-signup.js';
import { loggedPath, requestIdFor } from './request-log.js';
import { send, sendPage } from './respond.js';
import { widgetFileHandler, widgetLocaleHandler } from './widget-file.js';

const openapi = createRequire(import.meta.url)('@waitlistkit/protocol/openapi.json') as unknown;

/** The words of a page that knows no subscriber: the language the browser asks for. */
const browserWords = (req: Request): Words => wordsFor(languageOfHeader(req.get('accept-language')));

export interface AppOptions {
  /** What the server knows of its database: failures of it are 503s, and /healthz says so. */
  health: DatabaseHealth;
  /** The waitlist the demo page at / signs up to. */
  demoWaitlistId?: string | undefined;
  /** The operator dashboard, mounted at /dashboard by whoever builds the server. */
  dashboard?: Router;
}

export function createApp(app: Container, options: AppOptions): RequestListener {
  const { health } = options;
  const failed = publicFailure(app, health);
  const answerSignup = signupAnswer(app, failed);
  const web = express();
  web.disable('x-powered-by');
  web.set('etag', false);
  // Express would otherwise parse `a[b]=c` into objects; the list query takes plain strings.
  web.set('query parser', 'simple');

  // Every answer carries a Request-Id, and the log line of the request names it (docs/protocol.md#request-id).
  web.use((req, res, next) => {
    const requestId = requestIdFor(app.log, req, res, req.originalUrl);
    res.locals.requestId = requestId;
    res.set(Header.requestId, requestId);
    next();
  });

  // A load balancer takes an instance whose database is away out of rotation, and puts it back
  // once a probe has written again (app/database-health.ts): answered from what the server
  // knows, so a health check costs the database nothing.
  web.get('/healthz', (_req, res) => {
    const outage = health.outage;
    if (!outage) return res.json({ status: 'ok' });
    res
      .status(503)
      .set(Header.retryAfter, String(health.retryAfter()))
      .json({
        status: 'unavailable',
        database: 'unreachable or unable to write',
        code: outage.code,
        since: new Date(outage.since).toISOString(),
      });
  });

  web.get('/widget/waitlist.js', widgetFileHandler());
  web.get('/widget/locales/:file', widgetLocaleHandler());
  // Browsers ask for it on every page; an empty answer keeps their consoles free of 404s.
  web.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });

  web.get('/v1/openapi.json', (_req, res) => {
    res.json(openapi);
  });

  if (options.dashboard) web.use('/dashboard', options.dashboard);
  web.use('/v1/api', apiRouter(app));
  web.use('/v1/public', publicRouter(app, failed, answerSignup));

  web.get('/s/:token', async (req, res) => {
    const found = await statusView(app.store, String(req.params.token));
    if (!found) return sendPage(res, notFoundPage(browserWords(req)), 404);
    const origin = found.settings.origins[0];
    sendPage(
      res,
      statusPage(
        {
          waitlistName: found.waitlistName,
          position: found.admitted ? null : found.position,
          total: found.total,
          referralCode: found.referralCode,
          referralCount: found.referralCount,
          shareUrl: origin ? `${origin}/?ref=${found.referralCode}` : undefined,
          confirmed: found.confirmed,
        },
        wordsFor(found.lang),
      ),
    );
  });

  // The unsubscribe link: the page asks; its button's POST, or a mail client's one-click POST
  // (RFC 8058), unsubscribes and answers the page that says so (docs/messages.md#unsubscribe).
  web.get('/s/:token/unsubscribe', async (req, res) => {
    const found = await unsubscribeView(app, String(req.params.token));
    if (!found) return sendPage(res, notFoundPage(browserWords(req)), 404);
    sendPage(res, unsubscribePage(found, wordsFor(found.lang)));
  });
  web.post('/s/:token/unsubscribe', async (req, res) => {
    const done = await unsubscribe(app, String(req.params.token));
    if (!done) return sendPage(res, notFoundPage(browserWords(req)), 404);
    sendPage(res, unsubscribePage(done, wordsFor(done.lang)));
  });

  // The confirmation link: the page asks, only its button's POST confirms (docs/subscribers.md#email-confirmation).
  web.get('/c/:token', async (req, res) => {
    const page = await confirmationPage(app, String(req.params.token));
    if (!page) return sendPage(res, unknownConfirmationPage(browserWords(req)), 404);
    sendPage(res, confirmPage(page, wordsFor(page.lang)));
  });
  web.post('/c/:token', async (req, res) => {
    const result = await pressConfirm(app, String(req.params.token), clientIp(req, app.config.trustProxy));
    if (result.kind === 'throttled') {
      res.set('Retry-After', String(result.retryAfter));
      return sendPage(res, tooManyConfirmationsPage(browserWords(req)), 429);
    }
    if (result.kind === 'unknown') return sendPage(res, unknownConfirmationPage(browserWords(req)), 404);
    // Back to the link's page, which now says it is done: a reload does not post again.
    res.redirect(303, req.originalUrl);
  });

  web.get('/', async (_req, res) => {
    const waitlist = await liveWaitlist(app.store, options.demoWaitlistId);
    sendPage(res, waitlist ? demoPage(waitlist.id, waitlist.name, app.config.baseUrl) : infoPage());
  });

  web.use('/v1', (req, res) => {
    send(res, errorOutcome(ErrorCode.notFound, `No endpoint ${req.method} ${loggedPath(req.originalUrl)}.`));
  });

  web.use((req, res) => {
    sendPage(res, notFoundPage(browserWords(req)), 404);
  });

  web.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown }).status;
    // Express's own client errors (e.g. a malformed percent-encoding in the path): no such route.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      if (req.path.startsWith('/v1/')) return send(res, errorOutcome(ErrorCode.notFound, 'Not found.'));
      return sendPage(res, notFoundPage(browserWords(req)), 404);
    }
    // The database away or busy: nothing was done, and the outage is logged once, not per request.
    if (health.observe(error)) {
      if (res.headersSent) return res.end();
      const retryAfter = health.retryAfter(error);
      if (req.path.startsWith('/v1/')) return send(res, unavailableOutcome(retryAfter));
      res.set(Header.retryAfter, String(retryAfter));
      return sendPage(res, unavailablePage(), 503);
    }
    app.log.error('request failed', {
      request_id: res.locals.requestId,
      method: req.method,
      path: loggedPath(req.originalUrl),
      error: error instanceof Error ? error.stack : String(error),
    });
    if (res.headersSent) return res.end();
    send(res, errorOutcome(ErrorCode.internalError, 'Something went wrong on our side; try again.'));
  });

  const lane = signupLane(app, answerSignup);
  return (req, res) => {
    if (!lane(req, res)) web(req, res);
  };
}
