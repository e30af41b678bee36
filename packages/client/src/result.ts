/**
 * A method's result: the answer's body with what the client read from the answer's headers
 * beside it (`rateLimit`, `requestId`, and for a POST `idempotentReplayed`), as readable keys.
 * `JSON.stringify` writes the body alone, through a `toJSON` of the result's own that is not
 * enumerable (spreads and `Object.keys` do not see it): a result stored or sent on as JSON
 * carries the service's data, not this answer's transport details.
 */
import type { PostResponseInfo, ResponseInfo } from './types.js';

export function withInfo<T extends object, I extends ResponseInfo>(body: T, info: I): T & I {
  return Object.defineProperty({ ...body, ...info }, 'toJSON', { value: bodyOnly });
}

/** The result without the client's keys; the wire's names are snake_case, so none is the body's. */
function bodyOnly(this: Partial<PostResponseInfo>): object {
  const { rateLimit: _limit, requestId: _id, idempotentReplayed: _replayed, ...body } = this;
  return body;
}
