/**
 * The widget's old names for the failures it now names as the client does. Each is its new
 * class under the old name: `instanceof` answers for the new class's errors, so a page's
 * `catch (error) { if (error instanceof RateLimitedError) … }` keeps working, and one made
 * under the old name still says so in its `name`. Only the npm entry exports them; the
 * script tag never did.
 */
import {
  AbortError,
  ConnectionError,
  InternalServerError,
  RateLimitError,
  type WaitlistError,
} from './errors.js';

// biome-ignore lint/suspicious/noExplicitAny: a mixin's constructor takes any arguments.
type ErrorClass = new (...args: any[]) => WaitlistError;

function renamed<C extends ErrorClass>(Class: C, name: string): C {
  const Renamed = class extends Class {
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof Class;
    }
  };
  Renamed.prototype.name = name;
  return Renamed;
}

/** @deprecated use `RateLimitError`, the client's name for a 429 */
export const RateLimitedError = renamed(RateLimitError, 'RateLimitedError');
/** @deprecated use `RateLimitError`, the client's name for a 429 */
export type RateLimitedError = RateLimitError;
/** @deprecated use `InternalServerError`, the client's name for a 5xx */
export const ServerError = renamed(InternalServerError, 'ServerError');
/** @deprecated use `InternalServerError`, the client's name for a 5xx */
export type ServerError = InternalServerError;
/** @deprecated use `ConnectionError`, the client's name for no answer */
export const NetworkError = renamed(ConnectionError, 'NetworkError');
/** @deprecated use `ConnectionError`, the client's name for no answer */
export type NetworkError = ConnectionError;
/** @deprecated use `AbortError`, the client's (and the web platform's) name for an abort */
export const AbortedError = renamed(AbortError, 'AbortedError');
/** @deprecated use `AbortError`, the client's (and the web platform's) name for an abort */
export type AbortedError = AbortError;
