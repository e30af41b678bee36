import { IDEMPOTENCY_TTL_MS } from '@waitlistkit/protocol';
import { decide, type IdempotencyDecision, type KeptRequest } from '../../domain/idempotency.js';
import { mentionsIn, withoutCreated, withoutErased, withoutItem } from '../../domain/kept-answers.js';
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
    // An expired or abandoned answer is replaced: whom it named is no longer named.
    if (kept)
      await db.run('DELETE FROM idempotency_names WHERE key_id = ? AND idem_key = ?', [keyId, idemKey]);
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

/**
 * Keeps the answer, and indexes whom it names (idempotency_names). Whoever it names and is no
 * longer there was erased after the request's write: left out here, as the erasure would have.
 */
export async function complete(
  db: Connection,
  keyId: string,
  idemKey: string,
  answer: string,
): Promise<void> {
  const { ids, statusTokens } = mentionsIn(answer);
  const present =
    ids.length > 0
      ? await db.all<{ id: string }>(
          'SELECT id FROM subscribers WHERE id IN (SELECT value FROM json_each(?))',
          [JSON.stringify(ids)],
        )
      : [];
  const holders =
    statusTokens.length > 0
      ? await db.all<{ id: string; status_token: string }>(
          'SELECT id, status_token FROM subscribers WHERE status_token IN (SELECT value FROM json_each(?))',
          [JSON.stringify(statusTokens)],
        )
      : [];
  const here = new Set(present.map((r) => r.id));
  let kept = answer;
  for (const id of ids) if (!here.has(id)) kept = withoutItem(kept, id);
  if (statusTokens.some((token) => !holders.some((h) => h.status_token === token)))
    kept = withoutCreated(kept);
  await db.run("UPDATE idempotency SET state = 'done', answer = ? WHERE key_id = ? AND idem_key = ?", [
    kept,
    keyId,
    idemKey,
  ]);
  const named = [...here, ...holders.map((h) => h.id)];
  if (named.length === 0) return;
  await db.run(
    `INSERT INTO idempotency_names (key_id, idem_key, subscriber_id)
     SELECT ?, ?, value FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`,
    [keyId, idemKey, JSON.stringify(named)],
  );
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

/** The kept answers naming a subscriber: by the index of names, then each by primary key. */
export const ANSWERS_NAMING = `SELECT i.key_id, i.idem_key, i.answer FROM idempotency_names n
  JOIN idempotency i ON i.key_id = n.key_id AND i.idem_key = n.idem_key
  WHERE n.subscriber_id = ?`;

/**
 * An erased subscriber leaves every kept answer naming it, found through the index, not by
 * reading every answer: the answers stay (a retry still replays), without the person.
 */
export async function forgetAnswersNaming(db: Connection, id: string): Promise<void> {
  const naming = await db.all<{ key_id: string; idem_key: string; answer: string | null }>(ANSWERS_NAMING, [
    id,
  ]);
  for (const kept of naming) {
    if (kept.answer === null) continue;
    await db.run('UPDATE idempotency SET answer = ? WHERE key_id = ? AND idem_key = ?', [
      withoutErased(kept.answer, id),
      kept.key_id,
      kept.idem_key,
    ]);
  }
  await db.run('DELETE FROM idempotency_names WHERE subscriber_id = ?', [id]);
}
