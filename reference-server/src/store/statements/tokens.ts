/** Challenge tokens and Proof-of-Work nonces redeemed, until they expire (docs/gates.md#gates-before-the-submit). */
import type { TokenUse } from '../../domain/records.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import type { UsedTokens } from '../store.js';

const USED = perDialect((d) => `SELECT id FROM used_tokens WHERE ${d.anyOf('id')}`);

/**
 * The primary key decides: an id already there is not inserted again, and on PostgreSQL a second
 * insert of an id waits for the first one's transaction and, once it committed, inserts nothing.
 */
const REDEEM = perDialect(
  (d) => `INSERT INTO used_tokens (id, expires_at)
  SELECT t.id, t.expires_at FROM ${d.rows('t', { id: 'text', expires_at: 'bigint' })} WHERE true
  ON CONFLICT (id) DO NOTHING RETURNING id`,
);

/**
 * Redeems the tokens of many sign-ups in one statement. Per sign-up, the ids redeemed before it:
 * by someone else, or by an earlier sign-up of the same batch (the first in order wins).
 */
export async function redeemTokensOfMany(
  db: Db,
  d: Dialect,
  groups: readonly (readonly TokenUse[])[],
): Promise<string[][]> {
  const all = groups.flat();
  if (all.length === 0) return groups.map(() => []);
  const rows = await db.all<{ id: string }>(REDEEM(d), [JSON.stringify(all.map((t) => [t.id, t.expiresAt]))]);
  const won = new Set(rows.map((r) => r.id));
  // Set.delete answers true once per id: a second holder of one token in the batch loses it.
  return groups.map((tokens) => tokens.filter((t) => !won.delete(t.id)).map((t) => t.id));
}

/** Records the ids as redeemed; resolves to the ids someone else redeemed first. */
export async function redeemTokens(db: Db, d: Dialect, tokens: readonly TokenUse[]): Promise<string[]> {
  return (await redeemTokensOfMany(db, d, [tokens]))[0] as string[];
}

export function tokensOn(db: Db, d: Dialect): UsedTokens {
  return {
    async used(ids) {
      if (ids.length === 0) return new Set();
      return new Set((await db.all<{ id: string }>(USED(d), [ids])).map((r) => r.id));
    },
    redeem: (tokens) => redeemTokens(db, d, tokens),
    async forgetExpired(now) {
      await db.run('DELETE FROM used_tokens WHERE expires_at < ?', [now]);
    },
  };
}
