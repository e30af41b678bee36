/**
 * What is thrown, in words any door can show: a stable `code` and a message a person can read.
 * The use cases answer their refusals as values (app/refusal.ts); thrown are a setting of the
 * environment that cannot work (`usage_error`), the database away, and the settings rules'
 * refusals, which the use case turns into values. Where a failure concerns one input, `field`
 * names it (a setting's key, an option), and `remedy` may name the value that fixes it.
 */
export type ErrorKind =
  | 'invalid_request'
  | 'conflict'
  | 'usage_error'
  /** Locked by another process, or out of connections: the database is there, try again soon. */
  | 'database_busy'
  /** Unreachable, or unable to write (disk full, read-only): an outage, until it comes back. */
  | 'database_unavailable';

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

/** The database failing, not the request: `reason` is the driver's code (ECONNREFUSED, SQLITE_FULL, …). */
export class DatabaseFailure extends DomainError {
  constructor(
    code: 'database_busy' | 'database_unavailable',
    message: string,
    readonly reason: string,
  ) {
    super(code, message);
  }
}

export const conflict = (message: string, field?: string, remedy?: string) =>
  new DomainError('conflict', message, field, remedy);
export const invalid = (message: string, field?: string) =>
  new DomainError('invalid_request', message, field);

/**
 * The store could not do the work now, so nothing was decided: no door turns this into a refusal
 * (400, 403, 404); it is a 503 with Retry-After, or the command's own error.
 */
export function storeUnavailable(error: unknown): error is DatabaseFailure {
  return error instanceof DatabaseFailure;
}
