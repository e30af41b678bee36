import type { Session } from '../../domain/records.js';
import { type SessionRow, sessionFromRow } from '../session-rows.js';
import type { Connection } from './connection.js';

export async function insertSession(
  db: Connection,
  session: { idHash: string; operatorId: string; csrf: string; createdAt: number; expiresAt: number },
): Promise<void> {
  await db.run(
    'INSERT INTO sessions (id_hash, operator_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    [session.idHash, session.operatorId, session.csrf, session.createdAt, session.expiresAt],
  );
}

/** The live session with this hash and its operator, read fresh: a deleted operator has no session. */
export async function findSession(db: Connection, idHash: string, now: number): Promise<Session | undefined> {
  const row = await db.get<SessionRow>(
    `SELECT s.csrf, s.expires_at, o.id, o.tenant_id, o.email, o.role, o.created_at
       FROM sessions s JOIN operators o ON o.id = s.operator_id
      WHERE s.id_hash = ? AND s.expires_at > ?`,
    [idHash, now],
  );
  return row && sessionFromRow(row);
}

export async function deleteSession(db: Connection, idHash: string): Promise<void> {
  await db.run('DELETE FROM sessions WHERE id_hash = ?', [idHash]);
}

export async function deleteExpiredSessions(db: Connection, now: number): Promise<void> {
  await db.run('DELETE FROM sessions WHERE expires_at <= ?', [now]);
}
