import type { Response } from 'express';
import type { Page } from '../web/page.js';
import type { Outcome } from './outcome.js';

export function send(res: Response, outcome: Outcome): void {
  if (outcome.headers) res.set(outcome.headers);
  res.status(outcome.status).json(outcome.body);
}

export function sendPage(res: Response, page: Page, status = 200): void {
  res.status(status).set(page.headers).type('html').send(page.html);
}
