import type { Response } from 'express';
import type { Outcome } from '../domain/checks.js';

export function send(res: Response, outcome: Outcome): void {
  if (outcome.headers) res.set(outcome.headers);
  res.status(outcome.status).json(outcome.body);
}
