/**
 * Answers kept under (API key, Idempotency-Key), docs/protocol.md#idempotency-key, and whom each names
 * (idempotency_names), so that an erasure finds the answers naming the erased through an index.
 */
import { IDEMPOTENCY_TTL_MS } from '@waitlistkit/protocol';
import { decide, type KeptRequest } from '../../domain/idempotency.js';
import { mentionsIn, withoutCreated, withoutErased, withoutItem } from '../../domain/kept-answers.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import type { IdempotencyRecords } from '../store.js';
import { lockPair } from './locks.js';

/**
 * The subscribers among these still there. On PostgreSQL their rows are locked (FOR KEY SHARE:
 * against a DELETE, not against an update of their counts), so an erasure running now either
 * committed before (they are missing here) or waits for this answer and its names to commit, and
 * then finds them; taken before the answer's row, as the erasure takes them, so the two never
 * wait for each other.
 */
const PRESENT = perDialect((d) => `SELECT id FROM subscribers WHERE ${d.anyOf('id')}${d.lock('KEY SHARE')}`);
const HOLDERS = perDialect(
  (d) => `SELECT id, status_token FROM subscribers WHERE ${d.anyOf('status_token')}${d.lock('KEY SHARE')}`,
);

const NAME = perDialect(
  (d) => `INSERT INTO idempotency_names (key_id, idem_key, subscriber_id)
  SELECT ?, ?, n.id FROM ${d.rows('n', { id: 'text' })} WHERE true ON CONFLICT DO NOTHING`,
);

/** The kept answers naming a subscriber: by the index of names, then each by primary key. */
export const ANSWERS_NAMING = perDialect(
  (d) => `SELECT i.key_id, i.idem_key, i.answer FROM idempotency_names n
  JOIN idempotency i ON i.key_id = n.key_id AND i.idem_key = n.idem_key
  WHERE n.subscriber_id = ?${d.lock('UPDATE OF i')}`,
);

/**
 * An erased subscriber leaves every kept answer naming it, found through the index, not by
 * reading every answer: the answers stay (a retry still replays), without the person.
 */
export async function forgetAnswersNaming(db: Db, d: Dialect, id: string): Promise<void> {
  const naming = await db.all<{ key_id: string; idem_key: string; answer: string | null }>(
    ANSWERS_NAMING(d),
    [id],
  );
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

export function idempotencyOn(db: Db, d: Dialect): IdempotencyRecords {
  return {
    // Two processes deciding on the same pair at once would both read "nothing kept" and both
    // run: the pair's lock makes the second wait, then read the first one's record.
    async claim(keyId, idemKey, requestHash, now) {
      await lockPair(db, d, keyId, idemKey);
      const kept = await db.get<KeptRequest>(
        `SELECT request_hash AS "requestHash", state, answer, created_at AS "createdAt"
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
    },
    // Whoever the answer names and is no longer there was erased after the request's write:
    // left out here, as the erasure would have.
    async complete(keyId, idemKey, answer) {
      const { ids, statusTokens } = mentionsIn(answer);
      const present = ids.length > 0 ? await db.all<{ id: string }>(PRESENT(d), [ids]) : [];
      const holders =
        statusTokens.length > 0
          ? await db.all<{ id: string; status_token: string }>(HOLDERS(d), [statusTokens])
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
      await db.run(NAME(d), [keyId, idemKey, JSON.stringify(named.map((id) => [id]))]);
    },
    async release(keyId, idemKey) {
      await db.run("DELETE FROM idempotency WHERE key_id = ? AND idem_key = ? AND state = 'in_progress'", [
        keyId,
        idemKey,
      ]);
    },
    async forgetExpired(now) {
      await db.run('DELETE FROM idempotency WHERE created_at <= ?', [now - IDEMPOTENCY_TTL_MS]);
    },
  };
}
