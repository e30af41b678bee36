/** Waitlists, their settings kept as JSON text. */
import { newId } from '../../domain/ids.js';
import { rankKey } from '../../domain/positions.js';
import type { Waitlist } from '../../domain/records.js';
import { settingsFromJson } from '../../domain/settings.js';
import type { Db } from '../db.js';
import { type Dialect, perDialect } from '../dialect.js';
import type { Waitlists } from '../store.js';
import { isTrue, type StoredBoolean } from '../stored-boolean.js';
import { isoNow } from '../time.js';
import { rekeyVariants } from './variant-keys.js';

interface WaitlistRow {
  id: string;
  tenant_id: string;
  name: string;
  archived: StoredBoolean;
  settings: string;
  created_at: string;
  updated_at: string;
  version: number;
}

const WAITLIST_COLUMNS = 'id, tenant_id, name, archived, settings, created_at, updated_at, version';

const waitlistFromRow = (row: WaitlistRow): Waitlist => ({
  ...row,
  archived: isTrue(row.archived),
  settings: settingsFromJson(row.settings),
});

const INSERT = perDialect(
  (d) => `INSERT INTO waitlists (id, tenant_id, name, archived, settings, created_at, updated_at)
  VALUES (?, ?, ?, ${d.false}, ?, ?, ?)`,
);

const RERANK = perDialect(
  (d) => `UPDATE subscribers SET rank_key = k.rank_key
  FROM ${d.rows('k', { id: 'text', rank_key: 'bigint' })} WHERE subscribers.id = k.id`,
);

export function waitlistsOn(db: Db, d: Dialect): Waitlists {
  return {
    async insert(tenantId, name, settings, now) {
      const at = isoNow(now);
      const waitlist: Waitlist = {
        id: newId('waitlist'),
        tenant_id: tenantId,
        name,
        archived: false,
        settings,
        created_at: at,
        updated_at: at,
        version: 1,
      };
      await db.run(INSERT(d), [waitlist.id, tenantId, name, JSON.stringify(settings), at, at]);
      return waitlist;
    },
    async get(id) {
      const row = await db.get<WaitlistRow>(`SELECT ${WAITLIST_COLUMNS} FROM waitlists WHERE id = ?`, [id]);
      return row && waitlistFromRow(row);
    },
    async list(tenantId) {
      const rows = await db.all<WaitlistRow>(
        `SELECT ${WAITLIST_COLUMNS} FROM waitlists WHERE tenant_id = ? ORDER BY created_at`,
        [tenantId],
      );
      return rows.map(waitlistFromRow);
    },
    // When the boost changes, the referrers are re-ranked in the same transaction. On PostgreSQL
    // the update locks the waitlist's row first, as a sign-up does: no credit made with the old
    // boost lands after the re-ranking.
    async save(before, after, now) {
      const at = isoNow(now);
      const saved = await db.get<{ version: number }>(
        `UPDATE waitlists SET name = ?, settings = ?, archived = ?, updated_at = ?, version = version + 1
          WHERE id = ? RETURNING version`,
        [after.name, JSON.stringify(after.settings), after.archived, at, before.id],
      );
      if (after.settings.referral_boost !== before.settings.referral_boost) {
        // Only referrers' rank keys depend on the boost (everyone else's is their seq); the domain
        // computes them, the statement only stores them.
        const referrers = await db.all<{ id: string; seq: number; referral_count: number }>(
          'SELECT id, seq, referral_count FROM subscribers WHERE waitlist_id = ? AND referral_count > 0',
          [before.id],
        );
        const keys = referrers.map((r) => [
          r.id,
          rankKey(r.seq, r.referral_count, after.settings.referral_boost),
        ]);
        await db.run(RERANK(d), [JSON.stringify(keys)]);
      }
      if (after.settings.dedupe !== before.settings.dedupe)
        await rekeyVariants(db, d, before.id, after.settings.dedupe);
      return { ...before, ...after, updated_at: at, version: saved?.version ?? before.version + 1 };
    },
  };
}
