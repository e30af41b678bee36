/** An activity entry's row as both adapters read it, and how it becomes the API's `ActivityEntry`. */
import type { ActivityAction, ActivityEntry } from '../domain/records.js';

export interface ActivityRow {
  id: number;
  at: string;
  actor_type: 'operator' | 'key';
  actor_id: string;
  actor_name: string;
  action: ActivityAction;
  subject_id: string | null;
  details: string;
}

export const ACTIVITY_COLUMNS = 'id, at, actor_type, actor_id, actor_name, action, subject_id, details';

export function activityFromRow(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    at: row.at,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    action: row.action,
    subject_id: row.subject_id,
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}
