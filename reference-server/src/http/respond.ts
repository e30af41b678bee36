import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { Page } from '../web/page.js';
import type { Outcome } from './outcome.js';

export function send(res: Response, outcome: Outcome): void {
  if (outcome.headers) res.set(outcome.headers);
  res.status(outcome.status).json(outcome.body);
}

/**
 * JSON as Express's `res.json` sends it (same headers, same bytes), on node:http's own response:
 * the body goes out as a string, so node writes it with the head in one call.
 */
export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

export function sendPage(res: Response, page: Page, status = 200): void {
  res.status(status).set(page.headers).type('html').send(page.html);
}
