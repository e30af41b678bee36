import type { Plan } from '@waitlistkit/protocol';
import { newId } from '../../domain/ids.js';
import type { Tenant } from '../../domain/records.js';
import { isoNow } from '../time.js';
import type { Connection } from './connection.js';

export async function insertTenant(db: Connection, name: string, plan: Plan, now: number): Promise<Tenant> {
  const tenant: Tenant = { id: newId('tenant'), name, plan, created_at: isoNow(now) };
  await db.run('INSERT INTO tenants (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [
    tenant.id,
    name,
    plan,
    tenant.created_at,
  ]);
  return tenant;
}

export function getTenant(db: Connection, id: string): Promise<Tenant | undefined> {
  return db.get<Tenant>('SELECT id, name, plan, created_at FROM tenants WHERE id = ?', [id]);
}

export async function updatePlan(db: Connection, id: string, plan: Plan): Promise<boolean> {
  return (await db.run('UPDATE tenants SET plan = ? WHERE id = ?', [plan, id])).changes === 1;
}

export async function countTenants(db: Connection): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM tenants'))?.n ?? 0;
}
