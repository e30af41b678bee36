/**
 * Switching a waitlist's `dedupe` (docs/subscribers.md#address-variants), in the save's transaction
 * (on PostgreSQL under the waitlist's row lock, which sign-ups take too). To `exact`: no row holds
 * a variant key any more. To `provider`: each variant key goes to the first of its rows to have
 * joined. Rows already stored stay as they are, two variants of one person included (nothing is
 * merged or erased): a later sign-up of either exact address still matches its own row, and any
 * other variant matches the first.
 */
import { VARIANT_DOMAINS, variantKey } from '../../domain/address-variants.js';
import type { Dedupe } from '../../domain/settings.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';

const CLEAR = 'UPDATE subscribers SET variant_key = NULL WHERE waitlist_id = ? AND variant_key IS NOT NULL';

// Literal domains (no user input): the rows of the providers' addresses, in join order.
const OF_PROVIDERS = `SELECT id, email_norm FROM subscribers WHERE waitlist_id = ? AND (${VARIANT_DOMAINS.map(
  (domain) => `email_norm LIKE '%@${domain}'`,
).join(' OR ')}) ORDER BY seq`;

const SET_KEYS = perDialect(
  (d) => `UPDATE subscribers SET variant_key = k.variant_key
  FROM ${d.rows('k', { id: 'text', variant_key: 'text' })} WHERE subscribers.id = k.id`,
);

export async function rekeyVariants(db: Db, d: Dialect, waitlistId: string, dedupe: Dedupe): Promise<void> {
  await db.run(CLEAR, [waitlistId]);
  if (dedupe !== 'provider') return;
  const rows = await db.all<{ id: string; email_norm: string }>(OF_PROVIDERS, [waitlistId]);
  const holders = new Map<string, string>();
  for (const row of rows) {
    const key = variantKey(row.email_norm);
    if (key !== undefined && !holders.has(key)) holders.set(key, row.id);
  }
  if (holders.size > 0) await db.run(SET_KEYS(d), [JSON.stringify([...holders].map(([k, id]) => [id, k]))]);
}
