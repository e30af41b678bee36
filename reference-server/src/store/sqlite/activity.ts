import type { ActivityEntry, ActivityFilter, NewActivity } from '../../domain/records.js';
import { ACTIVITY_COLUMNS, type ActivityRow, activityFromRow } from '../activity-rows.js';
import { isoNow } from '../time.js';
import type { Connection } from './connection.js';

export async function appendActivity(db: Connection, entry: NewActivity, now: number): Promise<void> {
  await db.run(
    'INSERT INTO activity (tenant_id, at, actor_type, actor_id, actor_name, action, subject_id, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
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
}

export async function listActivity(
  db: Connection,
  tenantId: string,
  filter: ActivityFilter = {},
): Promise<ActivityEntry[]> {
  const rows = await db.all<ActivityRow>(
    `SELECT ${ACTIVITY_COLUMNS} FROM activity
      WHERE tenant_id = ?1
        AND (?2 IS NULL OR actor_type = ?2)
        AND (?3 IS NULL OR substr(action, 1, length(?3)) = ?3)
        AND (?4 IS NULL OR id < ?4)
      ORDER BY id DESC LIMIT ?5`,
    [
      tenantId,
      filter.actorType ?? null,
      filter.actionPrefix ?? null,
      filter.beforeId ?? null,
      filter.limit ?? 1000,
    ],
  );
  return rows.map(activityFromRow);
}
