import type { Response } from 'express';
import type { Operator } from '../domain/records.js';
import type { Page } from '../web/page.js';

/** The signed-in operator of a request and the session's CSRF token, set by the session guard. */
export interface Who {
  operator: Operator;
  csrf: string;
}

export const who = (res: Response) => res.locals.who as Who;

export function sendPage(res: Response, page: Page, status = 200): void {
  res.status(status).set(page.headers).type('html').send(page.html);
}
