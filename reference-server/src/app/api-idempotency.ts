/**
 * A POST of the customer API under its Idempotency-Key (docs/protocol.md#idempotency-key), per API key: the first
 * answer that `keeps` allows is kept 24 hours and given again to a retry of the same request; a
 * different request under the key is refused (422), a running one too (409). The key's budget
 * counts every one of them. Without the header, or without a valid key (the 401 comes in order),
 * the request just runs.
 */
import { ErrorCode, parseIdempotencyKey } from '@waitlistkit/protocol';
import { sha256Hex } from '../domain/crypto.js';
import { keeps } from '../domain/idempotency.js';
import { type ApiPost, type ApiResult, authenticate, type Outcome, refused, spend } from './api-access.js';
import type { Context } from './context.js';
import { refusal } from './refusal.js';

const REUSED = refusal(
  ErrorCode.idempotencyKeyReused,
  'This Idempotency-Key was used with a different request; use a new key for a new request.',
);
const IN_USE = refusal(
  ErrorCode.idempotencyKeyInUse,
  'A request with this Idempotency-Key is still in progress; retry once it has finished.',
);

export async function idempotently<T>(
  ctx: Context,
  operation: string,
  request: ApiPost,
  run: () => Promise<ApiResult<T>>,
): Promise<ApiResult<T>> {
  const id = request.idempotencyKey;
  if (id === undefined) return run();
  const grant = await authenticate(ctx, request.authorization);
  if (!grant) return run();
  const key = parseIdempotencyKey(id);
  if (!key.ok) {
    const spent = await spend(ctx, grant);
    if ('stop' in spent) return spent.stop;
    return refused(spent.budget, refusal(key.error.code, key.error.message));
  }
  const body = await request.readBody();
  const hash = sha256Hex(`${operation} ${request.waitlistId}\n${body.digest}`);
  const now = ctx.clock.now();
  const decision = await ctx.store.write((tx) => tx.idempotency.claim(grant.id, id, hash, now));
  if (decision.kind !== 'run') {
    const spent = await spend(ctx, grant);
    if ('stop' in spent) return spent.stop;
    const { budget } = spent;
    if (decision.kind === 'replay') {
      // The answer as this code stored it below, when the request first ran.
      const kept = JSON.parse(decision.answer) as Outcome<T>;
      return { ...kept, budget, replayed: true };
    }
    return refused(budget, decision.kind === 'reused' ? REUSED : IN_USE);
  }
  const forget = () => ctx.store.write((tx) => tx.idempotency.release(grant.id, id));
  let result: ApiResult<T>;
  try {
    result = await run();
  } catch (error) {
    await forget().catch(() => undefined);
    throw error;
  }
  const { budget: _budget, ...outcome } = result;
  if (keeps(result.ok ? undefined : result.refusal.code)) {
    await ctx.store.write((tx) => tx.idempotency.complete(grant.id, id, JSON.stringify(outcome)));
  } else await forget();
  return result;
}
