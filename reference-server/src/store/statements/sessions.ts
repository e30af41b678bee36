/** Dashboard sign-ins: only a hash of the cookie's value is stored. */
import type { Operator, Session } from '../../domain/records.js';
import type { Db } from '../db.js';
import type { Sessions } from '../store.js';

/** A session's row joined with its operator. */
interface SessionRow {
  csrf: string;
  expires_at: number;
  id: string;
  tenant_id: string;
  email: string;
  role: Operator['role'];
  created_at: string;
}

export function sessionsOn(db: Db): Sessions {
  return {
    async insert(session) {
      await db.run(
        'INSERT INTO sessions (id_hash, operator_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
        [session.idHash, session.operatorId, session.csrf, session.createdAt, session.expiresAt],
      );
    },
    // Read fresh, with its operator: a deleted operator has no session.
    async find(idHash, now): Promise<Session | undefined> {
      const row = await db.get<SessionRow>(
        `SELECT s.csrf, s.expires_at, o.id, o.tenant_id, o.email, o.role, o.created_at
           FROM sessions s JOIN operators o ON o.id = s.operator_id
          WHERE s.id_hash = ? AND s.expires_at > ?`,
        [idHash, now],
      );
      if (!row) return undefined;
      const { csrf, expires_at, ...operator } = row;
      return { operator, csrf, expires_at };
    },
    async delete(idHash) {
      await db.run('DELETE FROM sessions WHERE id_hash = ?', [idHash]);
    },
    async deleteExpired(now) {
      await db.run('DELETE FROM sessions WHERE expires_at <= ?', [now]);
    },
  };
}
