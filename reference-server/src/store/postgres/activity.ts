import type { ActivityEntry, ActivityFilter, NewActivity } from '../../domain/records.js';
import { ACTIVITY_COLUMNS, type ActivityRow, activityFromRow } from '../activity-rows.js';
import { isoNow } from '../time.js';
import type { Connection } from './connection.js';

export async function appendActivity(db: Connection, entry: NewActivity, now: number): Promise<void> {
  await db.run(
    `INSERT INTO activity (tenant_id, at, actor_type, actor_id, actor_name, action, subject_id, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
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
      WHERE tenant_id = $1
        AND ($2::text IS NULL OR actor_type = $2)
        AND ($3::text IS NULL OR starts_with(action, $3))
        AND ($4::bigint IS NULL OR id < $4)
      ORDER BY id DESC LIMIT $5`,
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
