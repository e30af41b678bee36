/**
 * Failures of the use cases, in words any door can show: a stable `code` and a message a person
 * can read. Where a failure concerns one input, `field` names it (a setting's key, `email`,
 * `password`), and `remedy` may name the value that fixes it; each door adds its own wording
 * around them (the command line an option name, the dashboard a form field, HTTP a status).
 */
export type ErrorKind =
  | 'invalid_request'
  | 'not_found'
  | 'forbidden'
  | 'feature_not_allowed'
  | 'conflict'
  | 'usage_error'
  | 'database_busy';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorKind,
    message: string,
    readonly field?: string,
    readonly remedy?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, id: string) =>
  new DomainError('not_found', `No ${what} with id ${JSON.stringify(id)}.`);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const featureNotAllowed = (message: string) => new DomainError('feature_not_allowed', message);
export const conflict = (message: string, field?: string, remedy?: string) =>
  new DomainError('conflict', message, field, remedy);
export const invalid = (message: string, field?: string) =>
  new DomainError('invalid_request', message, field);
