import type { Connection } from './connection.js';

/** Ids among `ids` already redeemed. */
export async function usedTokens(db: Connection, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.all<{ id: string }>('SELECT id FROM used_tokens WHERE id = ANY ($1::text[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

/**
 * Records the ids as redeemed; resolves to the ids someone else redeemed first. The primary key
 * decides between processes: a second insert of an id waits for the first one's transaction
 * and, once it committed, inserts nothing.
 */
export async function redeemTokens(
  db: Connection,
  tokens: readonly { id: string; expiresAt: number }[],
): Promise<string[]> {
  const taken: string[] = [];
  for (const token of tokens) {
    const result = await db.run(
      'INSERT INTO used_tokens (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING',
      [token.id, token.expiresAt],
    );
    if (result.changes === 0) taken.push(token.id);
  }
  return taken;
}

export async function forgetExpiredTokens(db: Connection, now: number): Promise<void> {
  await db.run('DELETE FROM used_tokens WHERE expires_at < $1', [now]);
}
