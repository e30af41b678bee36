/** A session's row joined with its operator, as both adapters read it, and how it becomes a `Session`. */
import type { Operator, Session } from '../domain/records.js';

export interface SessionRow {
  csrf: string;
  expires_at: number;
  id: string;
  tenant_id: string;
  email: string;
  role: Operator['role'];
  created_at: string;
}

export function sessionFromRow(row: SessionRow): Session {
  const { csrf, expires_at, ...operator } = row;
  return { operator, csrf, expires_at };
}
