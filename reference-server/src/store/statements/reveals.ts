import type { Db } from '../db.js';
import type { Reveals } from '../reveals.js';

export function revealsOn(db: Db): Reveals {
  return {
    async insert(reveal) {
      await db.run(
        'INSERT INTO reveals (lookup, operator_id, subject_id, sealed, expires_at) VALUES (?, ?, ?, ?, ?)',
        [reveal.lookup, reveal.operatorId, reveal.subjectId, reveal.sealed, reveal.expiresAt],
      );
    },
    // Removed as it is read, once: of two views at once, in any processes, one gets it. Another
    // operator's look leaves it in place.
    async take(lookup, operatorId, now) {
      const row = await db.get<{ subject_id: string; sealed: string; expires_at: number }>(
        'DELETE FROM reveals WHERE lookup = ? AND operator_id = ? RETURNING subject_id, sealed, expires_at',
        [lookup, operatorId],
      );
      if (!row || row.expires_at <= now) return undefined;
      return { subjectId: row.subject_id, sealed: row.sealed };
    },
    async forgetExpired(now) {
      await db.run('DELETE FROM reveals WHERE expires_at <= ?', [now]);
    },
  };
}
