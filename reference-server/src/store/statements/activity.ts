/** The activity log, append-only (a trigger refuses updates and deletes). */
import type { ActivityAction, ActivityEntry } from '../../domain/records.js';
import type { Db } from '../db.js';
import type { Activity } from '../store.js';
import { isoNow } from '../time.js';

interface ActivityRow {
  id: number;
  at: string;
  actor_type: 'operator' | 'key';
  actor_id: string;
  actor_name: string;
  action: ActivityAction;
  subject_id: string | null;
  details: string;
}

// A filter left out is NULL; the casts give PostgreSQL the parameters' types.
const LIST = `SELECT id, at, actor_type, actor_id, actor_name, action, subject_id, details FROM activity
  WHERE tenant_id = ?1
    AND (CAST(?2 AS TEXT) IS NULL OR actor_type = ?2)
    AND (CAST(?3 AS TEXT) IS NULL OR substr(action, 1, length(?3)) = ?3)
    AND (CAST(?4 AS BIGINT) IS NULL OR id < ?4)
  ORDER BY id DESC LIMIT ?5`;

const entryFromRow = (row: ActivityRow): ActivityEntry => ({
  id: row.id,
  at: row.at,
  actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
  action: row.action,
  subject_id: row.subject_id,
  details: JSON.parse(row.details) as Record<string, unknown>,
});

export function activityOn(db: Db): Activity {
  return {
    async append(entry, now) {
      await db.run(
        `INSERT INTO activity (tenant_id, at, actor_type, actor_id, actor_name, action, subject_id, details)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          entry.tenantId,
          isoNow(now),
          entry.actor.type,
          entry.actor.id,
          entry.actor.name,
          entry.action,
          entry.subjectId ?? null,
          JSON.stringify(entry.details ?? {}),
        ],
      );
    },
    async list(tenantId, filter = {}) {
      const rows = await db.all<ActivityRow>(LIST, [
        tenantId,
        filter.actorType ?? null,
        filter.actionPrefix ?? null,
        filter.beforeId ?? null,
        filter.limit ?? 1000,
      ]);
      return rows.map(entryFromRow);
    },
  };
}
