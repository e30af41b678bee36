/** Turning an answer's status, headers and body text into typed data or the right error. */
import { describeIssue, ERROR_STATUS, ErrorBodySchema, type ErrorCode } from '@waitlistkit/protocol';
import type * as z from 'zod/mini';
import {
  type ApiErrorInit,
  AuthenticationError,
  ConflictError,
  FeatureNotAllowedError,
  GeoRestrictedError,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  InsufficientScopeError,
  InternalServerError,
  InvalidEmailError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionError,
  RateLimitError,
  ResponseValidationError,
  UnprocessableEntityError,
  UnsupportedMediaTypeError,
  WaitlistApiError,
} from './errors.js';

export interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** The 2xx body validated against `schema`; `label` names the schema in the error message. */
export function readSuccess<S extends z.ZodMiniType>(answer: Answer, schema: S, label: string): z.output<S> {
  const { status, headers } = answer;
  const json = parseJson(answer.text);
  if (json === NOT_JSON) {
    throw new ResponseValidationError({
      status,
      headers,
      path: '',
      message: `The service's ${status} answer is not JSON; expected ${label}.`,
    });
  }
  // reportInput lets describeIssue say what was found ("not a string"); the inputs stay here.
  const result = schema.safeParse(json, { reportInput: true });
  if (result.success) return result.data;
  const [issue, ...more] = result.error.issues;
  if (issue === undefined) throw new Error('unreachable: a failed parse has an issue');
  const also = more.length > 0 ? ` (${more.length} more problem${more.length === 1 ? '' : 's'})` : '';
  throw new ResponseValidationError({
    status,
    headers,
    path: issue.path.join('.'),
    message: `The service's answer does not match ${label}: ${describeIssue(issue)}${also}`,
  });
}

function classFor(status: number): new (init: ApiErrorInit) => WaitlistApiError {
  if (status >= 500) return InternalServerError;
  switch (status) {
    case 400:
      return InvalidRequestError;
    case 401:
      return AuthenticationError;
    case 403:
      return PermissionError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 413:
      return PayloadTooLargeError;
    case 415:
      return UnsupportedMediaTypeError;
    case 422:
      return UnprocessableEntityError;
    case 429:
      return RateLimitError;
    default:
      return WaitlistApiError;
  }
}

/** The error for a non-2xx answer: the code's class when the code fits the status, else the status's. */
export function toApiError(answer: Answer): WaitlistApiError {
  const { status, statusText, headers } = answer;
  const body = ErrorBodySchema.safeParse(parseJson(answer.text));
  const code: ErrorCode | undefined = body.success ? body.data.error.code : undefined;
  const message = body.success
    ? body.data.error.message
    : `The service answered ${status}${statusText ? ` ${statusText}` : ''} without its error body.`;
  const init = { status, code, message, headers };
  // A code the contract sends with another status (a proxy's doing, or a bug) does not pick the
  // class: the status is what the request's fate was decided on.
  if (code !== undefined && ERROR_STATUS[code] === status) {
    switch (code) {
      case 'invalid_email':
        return new InvalidEmailError(init);
      case 'feature_not_allowed':
        return new FeatureNotAllowedError(init);
      case 'insufficient_scope':
        return new InsufficientScopeError(init);
      case 'geo_restricted':
        return new GeoRestrictedError(init);
      case 'idempotency_key_in_use':
        return new IdempotencyKeyInUseError(init);
      case 'idempotency_key_reused':
        return new IdempotencyKeyReusedError(init);
    }
  }
  const Class = classFor(status);
  return new Class(init);
}
