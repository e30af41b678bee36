import type { Response } from 'express';
import type { Page } from '../web/page.js';

export function sendPage(res: Response, page: Page, status = 200): void {
  res.status(status).set(page.headers).type('html').send(page.html);
}
