import { IDEMPOTENCY_TTL_MS } from '@waitlistkit/protocol';
import { decide, type IdempotencyDecision, type KeptRequest } from '../../domain/idempotency.js';
import type { Connection } from './connection.js';

/** Decides on a request under (API key, Idempotency-Key) and, when it is to run, marks it running. */
export async function claim(
  db: Connection,
  keyId: string,
  idemKey: string,
  requestHash: string,
  now: number,
): Promise<IdempotencyDecision> {
  const kept = await db.get<KeptRequest>(
    `SELECT request_hash AS requestHash, state, answer, created_at AS createdAt
       FROM idempotency WHERE key_id = ? AND idem_key = ?`,
    [keyId, idemKey],
  );
  const decision = decide(kept, requestHash, now);
  if (decision.kind === 'run') {
    await db.run(
      `INSERT INTO idempotency (key_id, idem_key, request_hash, state, answer, created_at)
       VALUES (?, ?, ?, 'in_progress', NULL, ?)
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
  await db.run("UPDATE idempotency SET state = 'done', answer = ? WHERE key_id = ? AND idem_key = ?", [
    answer,
    keyId,
    idemKey,
  ]);
}

export async function release(db: Connection, keyId: string, idemKey: string): Promise<void> {
  await db.run("DELETE FROM idempotency WHERE key_id = ? AND idem_key = ? AND state = 'in_progress'", [
    keyId,
    idemKey,
  ]);
}

export async function forgetExpiredAnswers(db: Connection, now: number): Promise<void> {
  await db.run('DELETE FROM idempotency WHERE created_at <= ?', [now - IDEMPOTENCY_TTL_MS]);
}

/** Kept answers that name a subscriber (an admission lists emails): erased with it. */
export async function forgetAnswersNaming(db: Connection, id: string): Promise<void> {
  await db.run('DELETE FROM idempotency WHERE instr(answer, ?) > 0', [`"${id}"`]);
}
