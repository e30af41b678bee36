import type { NewReveal, StoredReveal } from '../reveals.js';
import type { Connection } from './connection.js';

export async function insertReveal(db: Connection, reveal: NewReveal): Promise<void> {
  await db.run(
    'INSERT INTO reveals (lookup, operator_id, subject_id, sealed, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [reveal.lookup, reveal.operatorId, reveal.subjectId, reveal.sealed, reveal.expiresAt],
  );
}

/**
 * Removes the operator's entry and answers it, once: of two views at once, in any processes, one
 * gets it. Another operator's look leaves it in place.
 */
export async function takeReveal(
  db: Connection,
  lookup: string,
  operatorId: string,
  now: number,
): Promise<StoredReveal | undefined> {
  const row = await db.get<{ subject_id: string; sealed: string; expires_at: number }>(
    'DELETE FROM reveals WHERE lookup = $1 AND operator_id = $2 RETURNING subject_id, sealed, expires_at',
    [lookup, operatorId],
  );
  if (!row || row.expires_at <= now) return undefined;
  return { subjectId: row.subject_id, sealed: row.sealed };
}

export async function forgetExpiredReveals(db: Connection, now: number): Promise<void> {
  await db.run('DELETE FROM reveals WHERE expires_at <= $1', [now]);
}
