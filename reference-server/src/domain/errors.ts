/**
 * Failures of the service layer. `code` is the contract's machine code on the HTTP side and the
 * CLI's error code; `status` is the HTTP status. The CLI maps `usage` failures to exit code 2.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly usage = false,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const notFound = (what: string, id: string) =>
  new ServiceError('not_found', `No ${what} with id ${JSON.stringify(id)}.`, 404);
export const forbidden = (message: string) => new ServiceError('forbidden', message, 403);
export const featureNotAllowed = (message: string) => new ServiceError('feature_not_allowed', message, 403);
export const conflict = (message: string) => new ServiceError('conflict', message, 409);
export const invalid = (message: string) => new ServiceError('invalid_request', message, 400, true);
