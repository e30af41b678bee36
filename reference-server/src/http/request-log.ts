/**
 * The Request-Id every answer carries, and the log line of each request that names it
 * (docs/protocol.md#request-id): one place for both doors of the server, Express's routes and the
 * public sign-up's own lane (signup-lane.ts). Logs never hold a key, a status token or a full email.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../adapters/logger.js';
import { newRequestId } from '../domain/ids.js';

/** Paths whose last segment is a capability: whoever reads it in a log could use it. */
const SECRET_PATHS: readonly [RegExp, string][] = [
  [/^\/s\/[^/]+/i, '/s/:token'],
  [/^\/c\/[^/]+/i, '/c/:token'],
  [/^\/dashboard\/keys\/created\/[^/]+/i, '/dashboard/keys/created/:reveal'],
  [/^\/dashboard\/webhooks\/created\/[^/]+/i, '/dashboard/webhooks/created/:reveal'],
];

/** The path as logged: capability tokens replaced, query strings (which may hold an email) dropped. */
export function loggedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  for (const [pattern, shown] of SECRET_PATHS) if (pattern.test(path)) return path.replace(pattern, shown);
  return path;
}

/**
 * A new request's id, its log line written once the answer is sent. `url` is the request's URL
 * as it arrived (Express's `originalUrl`: its routers rewrite `req.url`).
 */
export function requestIdFor(log: Logger, req: IncomingMessage, res: ServerResponse, url: string): string {
  const started = performance.now();
  const requestId = newRequestId();
  res.on('finish', () =>
    log.request({
      request_id: requestId,
      method: req.method,
      path: loggedPath(url),
      status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10,
    }),
  );
  return requestId;
}
