/**
 * An endpoint's delivery as both adapters list it, with its attempts, and how it becomes the
 * dashboard's `DeliveryRow`: times are stored as milliseconds and shown as ISO 8601.
 */
import type { DeliveryRow } from './store.js';
import { isoNow } from './time.js';

export interface AttemptRow {
  at: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export type ListedDeliveryRow = Omit<DeliveryRow, 'attempts' | 'created_at'> & { created_at: number };

/** The delivery with its attempts, which each adapter aggregates into one column its own way. */
export function deliveryFromRow(row: ListedDeliveryRow, attempts: readonly AttemptRow[]): DeliveryRow {
  return {
    ...row,
    created_at: isoNow(row.created_at),
    attempts: attempts.map((a) => ({ ...a, at: isoNow(a.at) })),
  };
}
