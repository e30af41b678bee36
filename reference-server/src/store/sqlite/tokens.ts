import type { Connection } from './connection.js';

/** Ids among `ids` already redeemed. */
export async function usedTokens(db: Connection, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.all<{ id: string }>(
    `SELECT id FROM used_tokens WHERE id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  return new Set(rows.map((r) => r.id));
}

/** Records the ids as redeemed; resolves to the ids someone else redeemed first. */
export async function redeemTokens(
  db: Connection,
  tokens: readonly { id: string; expiresAt: number }[],
): Promise<string[]> {
  const taken: string[] = [];
  for (const token of tokens) {
    const result = await db.run('INSERT OR IGNORE INTO used_tokens (id, expires_at) VALUES (?, ?)', [
      token.id,
      token.expiresAt,
    ]);
    if (result.changes === 0) taken.push(token.id);
  }
  return taken;
}

export async function forgetExpiredTokens(db: Connection, now: number): Promise<void> {
  await db.run('DELETE FROM used_tokens WHERE expires_at < ?', [now]);
}
