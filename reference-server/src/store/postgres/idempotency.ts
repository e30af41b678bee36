import { IDEMPOTENCY_TTL_MS } from '@waitlistkit/protocol';
import { decide, type IdempotencyDecision, type KeptRequest } from '../../domain/idempotency.js';
import type { Connection } from './connection.js';

/**
 * Decides on a request under (API key, Idempotency-Key) and, when it is to run, marks it running.
 * Two processes deciding on the same pair at once would both read "nothing kept" and both run:
 * a transaction lock on the pair makes the second wait and then read the first one's record.
 */
export async function claim(
  db: Connection,
  keyId: string,
  idemKey: string,
  requestHash: string,
  now: number,
): Promise<IdempotencyDecision> {
  await db.run('SELECT pg_advisory_xact_lock(hashtextextended($1::text || chr(10) || $2::text, 0))', [
    keyId,
    idemKey,
  ]);
  const kept = await db.get<KeptRequest>(
    `SELECT request_hash AS "requestHash", state, answer, created_at AS "createdAt"
       FROM idempotency WHERE key_id = $1 AND idem_key = $2`,
    [keyId, idemKey],
  );
  const decision = decide(kept, requestHash, now);
  if (decision.kind === 'run') {
    await db.run(
      `INSERT INTO idempotency (key_id, idem_key, request_hash, state, answer, created_at)
       VALUES ($1, $2, $3, 'in_progress', NULL, $4)
       ON CONFLICT (key_id, idem_key) DO UPDATE SET
         request_hash = excluded.request_hash, state = 'in_progress', answer = NULL, created_at = excluded.created_at`,
      [keyId, idemKey, requestHash, now],
    );
  }
  return decision;
}

export async function complete(
  db: Connection,
  keyId: string,
  idemKey: string,
  answer: string,
): Promise<void> {
  await db.run("UPDATE idempotency SET state = 'done', answer = $1 WHERE key_id = $2 AND idem_key = $3", [
    answer,
    keyId,
    idemKey,
  ]);
}

export async function release(db: Connection, keyId: string, idemKey: string): Promise<void> {
  await db.run("DELETE FROM idempotency WHERE key_id = $1 AND idem_key = $2 AND state = 'in_progress'", [
    keyId,
    idemKey,
  ]);
}

export async function forgetExpiredAnswers(db: Connection, now: number): Promise<void> {
  await db.run('DELETE FROM idempotency WHERE created_at <= $1', [now - IDEMPOTENCY_TTL_MS]);
}

/** Kept answers that name a subscriber (an admission lists emails): erased with it. */
export async function forgetAnswersNaming(db: Connection, id: string): Promise<void> {
  await db.run('DELETE FROM idempotency WHERE strpos(answer, $1) > 0', [`"${id}"`]);
}
