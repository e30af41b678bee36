/**
 * A waitlist's row as both adapters read it (its settings kept as JSON text), how it becomes the
 * `Waitlist` record, and the waitlist an insert stores.
 */
import { newId } from '../domain/ids.js';
import type { Waitlist } from '../domain/records.js';
import { settingsFromJson, type WaitlistSettings } from '../domain/settings.js';
import { isTrue, type StoredBoolean } from './stored-boolean.js';
import { isoNow } from './time.js';

export interface WaitlistRow {
  id: string;
  tenant_id: string;
  name: string;
  archived: StoredBoolean;
  settings: string;
  created_at: string;
  updated_at: string;
  version: number;
}

export const WAITLIST_COLUMNS = 'id, tenant_id, name, archived, settings, created_at, updated_at, version';

export const waitlistFromRow = (row: WaitlistRow): Waitlist => ({
  ...row,
  archived: isTrue(row.archived),
  settings: settingsFromJson(row.settings),
});

/** The waitlist `insertWaitlist` stores: live, created and updated now. */
export function newWaitlist(
  tenantId: string,
  name: string,
  settings: WaitlistSettings,
  now: number,
): Waitlist {
  const at = isoNow(now);
  return {
    id: newId('waitlist'),
    tenant_id: tenantId,
    name,
    archived: false,
    settings,
    created_at: at,
    updated_at: at,
    version: 1,
  };
}
