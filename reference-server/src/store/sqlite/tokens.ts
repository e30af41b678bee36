import type { TokenUse } from '../../domain/records.js';
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
export async function redeemTokens(db: Connection, tokens: readonly TokenUse[]): Promise<string[]> {
  return (await redeemTokensOfMany(db, [tokens]))[0] as string[];
}

/**
 * Redeems the tokens of many sign-ups in one statement. Per sign-up, the ids redeemed before it:
 * by someone else, or by an earlier sign-up of the same batch (the first in order wins).
 */
export async function redeemTokensOfMany(
  db: Connection,
  groups: readonly (readonly TokenUse[])[],
): Promise<string[][]> {
  const all = groups.flat();
  if (all.length === 0) return groups.map(() => []);
  const rows = await db.all<{ id: string }>(
    `INSERT OR IGNORE INTO used_tokens (id, expires_at)
       SELECT value ->> 0, value ->> 1 FROM json_each(?) RETURNING id`,
    [JSON.stringify(all.map((t) => [t.id, t.expiresAt]))],
  );
  const won = new Set(rows.map((r) => r.id));
  // Set.delete answers true once per id: a second holder of one token in the batch loses it.
  return groups.map((tokens) => tokens.filter((t) => !won.delete(t.id)).map((t) => t.id));
}

export async function forgetExpiredTokens(db: Connection, now: number): Promise<void> {
  await db.run('DELETE FROM used_tokens WHERE expires_at < ?', [now]);
}
